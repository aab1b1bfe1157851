#!/usr/bin/env bash
# The live heap of a manager with N engaged clusters whose caches are empty, against N = 0, and
# the time from engaging a cluster to its caches synced; then every cluster disengaged, the heap
# back. One throwaway etcd + kube-apiserver on loopback is engaged under N names, each with a
# client of its own; each N in a fresh JVM with the same flags, in rotating rounds
# (RESULTS.md, section 14).
#
# Usage: benchmarks/engaged-clusters.sh [ROUNDS] [COUNTS]   (default 3 rounds, COUNTS "0 1 5 10")
#   API_PORT / ETCD_PORT  loopback ports (default 25453 / 25389; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
rounds=${1:-3}
read -r -a counts <<< "${2:-0 1 5 10}"
jvm=(java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms512m -Xmx512m -cp "$root/benchmarks/target/benchmarks.jar")
run=$(mktemp -d -t kube-reconciler-engaged.XXXXXX)
out=$run/out.txt
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-25453}" "${ETCD_PORT:-25389}"
main=dev.kubereconciler.benchmarks.EngagedClusterMemory
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
    # rotating: each round starts with the next count
    n=${#counts[@]}
    for i in $(seq 0 $((n - 1))); do
        count=${counts[$(((i + round - 1) % n))]}
        "${jvm[@]}" "$main" "$run/kubeconfig" empty "$count" 2>&1 | { grep -v '^SLF4J' || true; } \
            | grep -E '^(engaged|engage|disengaged) |Exception' | sed "s/^/round $round /" | tee -a "$out"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# medians over the rounds: live bytes engaged and disengaged, and above N = 0 per cluster
echo "median: what N live-bytes (engaged/disengaged) or median-ms max-ms first-ms (engage)"
for what in engaged disengaged engage; do
    for count in "${counts[@]}"; do
        awk -v w="$what" -v c="$count" '$3 == w && $4 == c { print $5, $6, $7 }' "$out" | sort -n \
            | awk -v w="$what" -v c="$count" '{ v[NR] = $1; m[NR] = $2; f[NR] = $3 } END {
                if (NR > 0) { k = int((NR + 1) / 2); print "median", w, c, v[k], (w == "engage") ? m[k] " " f[k] : "" } }'
    done
done
median_of() {
    awk -v w="$1" -v c="$2" '$3 == w && $4 == c { print $5 }' "$out" | sort -n \
        | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
# the first engaged cluster also loads what every later one shares: the marginal cost of one
# more is the slope above N = 1; what disengaging leaves behind is disengaged N against N = 1
base=$(median_of engaged 0)
one=$(median_of engaged 1)
gone=$(median_of disengaged 1)
for count in "${counts[@]}"; do
    [ "$count" -gt 0 ] || continue
    engaged=$(median_of engaged "$count")
    disengaged=$(median_of disengaged "$count")
    echo "N=$count: $(( (engaged - ${base:-0}) / count )) bytes per engaged cluster above N=0"
    if [ "$count" -gt 1 ] && [ -n "$one" ]; then
        echo "N=$count: $(( (engaged - one) / (count - 1) )) bytes per engaged cluster past the first;" \
            "$(( (disengaged - gone) / (count - 1) )) bytes per cluster left after disengaging"
    fi
done
