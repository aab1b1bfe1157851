#!/usr/bin/env bash
# Runs the whole-controller benchmark (ControllerPeers) and the cache memory of each peer
# (PeerMemory, one JVM per figure) against a throwaway etcd + kube-apiserver on loopback.
#
# Usage: benchmarks/peers.sh [cold N] [write M] [rate R] [seconds S] [rounds K]
#   MEMORY      ConfigMap counts of the memory figures (default "10000 50000"; "" skips them)
#   API_PORT / ETCD_PORT  loopback ports (default 27443 / 27379; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
jar=$root/benchmarks/target/benchmarks.jar
# the same flags for every peer and every figure; MarkSweepDeadRatio=0 makes every full
# collection compact everything, so that the class histogram counts no dead objects
# (RESULTS.md, section 10)
jvm=(java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms3g -Xmx3g -cp "$jar")
run=$(mktemp -d -t kube-reconciler-peers.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-27443}" "${ETCD_PORT:-27379}"
kubeconfig=$run/kubeconfig

echo "JVM: ${jvm[*]:0:5}"
timeout 1800 "${jvm[@]}" dev.kubereconciler.benchmarks.ControllerPeers "$kubeconfig" "$@" 2>&1 | grep -v '^SLF4J'

memory=${MEMORY-10000 50000}
[ -n "$memory" ] || exit 0
echo "== cache memory (live objects after a full GC, controller running, minus the same peer on an empty namespace)"
peers=(ours ours-no-compact ours-keep-managed-fields josdk client-java)
figure() { # figure PEER NAMESPACE COUNT [JVM FLAG]: the bytes of live objects (class histogram total)
    timeout 600 "${jvm[@]:0:4}" ${4:-} "${jvm[@]:4}" dev.kubereconciler.benchmarks.PeerMemory \
        "$kubeconfig" "$1" "$2" "$3" 2>"$run/memory-$1-$3.err" | awk '/^memory /{print $4}' || true
}
declare -A base
"${jvm[@]}" dev.kubereconciler.benchmarks.PeerMemory "$kubeconfig" populate memory-empty 0 0 >/dev/null 2>&1
for peer in "${peers[@]}"; do
    base[$peer]=$(figure "$peer" memory-empty 0)
done
base[client-java-managed]=$(figure client-java memory-empty 0 -Dkubernetes.client.includeManagedFields=true)
have=0
for count in $memory; do
    "${jvm[@]}" dev.kubereconciler.benchmarks.PeerMemory "$kubeconfig" populate memory-full "$have" "$count" 2>&1 \
        | grep '^applied'
    have=$count
    for peer in "${peers[@]}" client-java-managed; do
        if [ "$peer" = client-java-managed ]; then
            used=$(figure client-java memory-full "$count" -Dkubernetes.client.includeManagedFields=true)
            label="client-java, -Dkubernetes.client.includeManagedFields=true"
        else
            used=$(figure "$peer" memory-full "$count")
            label=$peer
        fi
        if [ -z "$used" ] || [ -z "${base[$peer]}" ]; then
            echo "$label $count ConfigMaps: FAILED"; tail -n 3 "$run"/memory-*.err; continue
        fi
        awk -v p="$label" -v n="$count" -v u="$used" -v b="${base[$peer]}" 'BEGIN {
            printf "%-60s %6d ConfigMaps: %9.1f MiB retained, %7.0f bytes per object (baseline %.1f MiB)\n",
                p, n, (u - b) / 1048576, (u - b) / n, b / 1048576 }'
    done
done
