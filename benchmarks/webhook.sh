#!/usr/bin/env bash
# Runs the admission webhook latency benchmark (WebhookLatency) against a throwaway etcd +
# kube-apiserver on loopback; the webhook server runs in the benchmark's JVM on 127.0.0.1.
#
# Usage: benchmarks/webhook.sh [rate R] [seconds S] [rounds K] [size B] [warmup W] [clients C] [selfcheck 0|1]
#   (by default 200/s, 30 s, 3 rounds of each mode, 4096 bytes, 5 s of warm-up, 64 clients, the
#   self-check gate: the webhook is registered once its server has served its HTTPS self-check, and
#   the creates of the first 5 s after that are reported as "after ready"; selfcheck 0: no gate)
#   API_PORT / ETCD_PORT  loopback ports (default 25443 / 25379; etcd peers use ETCD_PORT+1)
#   JVM_FLAGS  more flags for the benchmark's JVM, e.g. "-Dsun.net.httpserver.nodelay=true", which
#              makes the JDK's HTTP server (the webhook server's) set TCP_NODELAY; see RESULTS.md
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
read -r -a flags <<<"${JVM_FLAGS:-}"
jvm=(java -Xms1g -Xmx1g "${flags[@]}" -cp "$root/benchmarks/target/benchmarks.jar")
run=$(mktemp -d -t kube-reconciler-webhook.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-25443}" "${ETCD_PORT:-25379}"
echo "JVM: ${jvm[*]:0:$((${#jvm[@]} - 2))}"
timeout 1800 "${jvm[@]}" dev.kubereconciler.benchmarks.WebhookLatency "$run/kubeconfig" "$@" 2>&1 | grep -v '^SLF4J'
