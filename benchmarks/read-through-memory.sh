#!/usr/bin/env bash
# The live heap of a controller that reads Secrets, with COUNT Secrets of 1 KiB cached by an
# informer against read through (CacheOptions.readThrough), and a baseline that reads none,
# each in a fresh JVM with the same flags, against a throwaway etcd + kube-apiserver on
# loopback (RESULTS.md, section 12).
#
# Usage: benchmarks/read-through-memory.sh [COUNT] [ROUNDS]   (default 10000 Secrets, 3 rounds)
#   API_PORT / ETCD_PORT  loopback ports (default 25443 / 25379; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
count=${1:-10000}
rounds=${2:-3}
jvm=(java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms512m -Xmx512m -cp "$root/benchmarks/target/benchmarks.jar")
run=$(mktemp -d -t kube-reconciler-read-through.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-25443}" "${ETCD_PORT:-25379}"
main=dev.kubereconciler.benchmarks.ReadThroughMemory
"${jvm[@]}" "$main" "$run/kubeconfig" populate read-through "$count" 2>&1 | { grep -v '^SLF4J' || true; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
    # rotating: each round starts with another mode
    case $((round % 3)) in
        1) modes="none cached read-through" ;;
        2) modes="cached read-through none" ;;
        0) modes="read-through none cached" ;;
    esac
    for mode in $modes; do
        "${jvm[@]}" "$main" "$run/kubeconfig" "$mode" read-through "$count" 2>&1 | { grep -v '^SLF4J' || true; } \
            | grep -E '^memory|Exception' | sed "s/^/round $round /"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
