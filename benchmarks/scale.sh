#!/usr/bin/env bash
# Runs the 100,000-object benchmark (ScalePeers) against a throwaway etcd + kube-apiserver on
# loopback: every peer's cold start, its peak heap during the initial list and its live bytes per
# cached object, each peer in a fresh JVM with the same flags (RESULTS.md, section 10).
#
# Usage: benchmarks/scale.sh [count N] [rounds K] [warmup W] [peers a,b,...]
#   (by default 100,000 ConfigMaps, 1 round, a warm-up on 300, and the peers
#   ours,ours-unpaged,josdk,client-java,bare)
#   SCALE_JVM   the flags of every peer's JVM (default ScalePeers' own,
#               "-XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms4g -Xmx4g -Xmn64m")
#   SCALE_DIR   keep etcd's data in this directory between runs, so that the ConfigMaps are
#               created once (default: a throwaway directory, deleted at the end)
#   API_PORT / ETCD_PORT  loopback ports (default 24443 / 24379; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
jvm=(java -Xmx1g -cp "$root/benchmarks/target/benchmarks.jar")
if [ -n "${SCALE_JVM:-}" ]; then
    jvm+=("-Dscale.jvm=$SCALE_JVM")
fi
if [ -n "${SCALE_DIR:-}" ]; then
    run=$SCALE_DIR
    mkdir -p "$run"
else
    run=$(mktemp -d -t kube-reconciler-scale.XXXXXX)
fi
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    [ -n "${SCALE_DIR:-}" ] || rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-24443}" "${ETCD_PORT:-24379}"
echo "memory: $(free -m | awk '/^Mem:/ {print $2 " MiB total, " $7 " MiB available"}')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
timeout 7200 "${jvm[@]}" dev.kubereconciler.benchmarks.ScalePeers "$run/kubeconfig" "$@" 2>&1 \
    | grep --line-buffered -v '^SLF4J' || status=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "etcd data: $(du -sh "$run/etcd" | cut -f1)"
exit "$status"
