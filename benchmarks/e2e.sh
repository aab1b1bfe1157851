#!/usr/bin/env bash
# Runs the end-to-end latency harness against a throwaway etcd + kube-apiserver on loopback.
#
# Usage: benchmarks/e2e.sh [rate per second] [count] [warm-up]
#   API_PORT / ETCD_PORT  loopback ports (default 26443 / 26379; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` (etcd on PATH, the unpacked test kube-apiserver) and
# `./mvnw -pl benchmarks -am package -DskipTests` (benchmarks/target/benchmarks.jar).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
run=$(mktemp -d -t kube-reconciler-e2e.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-26443}" "${ETCD_PORT:-26379}"
timeout 600 java -Xmx1g -cp "$root/benchmarks/target/benchmarks.jar" \
    dev.kubereconciler.benchmarks.EndToEndLatency "$run/kubeconfig" "$@"
