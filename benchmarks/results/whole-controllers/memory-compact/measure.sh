#!/usr/bin/env bash
# PeerMemory figures for the compaction work: ours (compact on), ours-no-compact, client-java,
# at 10,000 ConfigMaps, twice each, plus -Dkubernetes.client.includeManagedFields=true.
set -uo pipefail
root=/work/wt/compact
jar=$root/benchmarks/target/benchmarks.jar
run=/tmp/compact/api
kc=$run/kubeconfig
out=${OUT:-/tmp/compact/memory.txt}
count=${COUNT:-10000}
jvm=(java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms3g -Xmx3g)
figure() { # figure LABEL PEER NAMESPACE COUNT [FLAG]
    local label=$1 peer=$2 ns=$3 n=$4 flag=${5:-}
    local line
    line=$(timeout 600 "${jvm[@]}" $flag -Dpeer.memory.histogram=40 -cp "$jar" dev.kubereconciler.benchmarks.PeerMemory \
        "$kc" "$peer" "$ns" "$n" 2>"/tmp/compact/histo-$label.txt" | grep '^memory')
    echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg) $label: $line" | tee -a "$out"
}
echo "== $(date -u) java ${jvm[*]:1} PeerMemory, COUNT=$count, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
for round in 1 2; do
    figure "base-ours-$round" ours memory-empty 0
    figure "base-ours-no-compact-$round" ours-no-compact memory-empty 0
    figure "base-client-java-$round" client-java memory-empty 0
    figure "full-ours-$round" ours memory-full "$count"
    figure "full-ours-no-compact-$round" ours-no-compact memory-full "$count"
    figure "full-client-java-$round" client-java memory-full "$count"
done
for round in 1 2; do
    figure "mf-base-ours-$round" ours memory-empty 0 -Dkubernetes.client.includeManagedFields=true
    figure "mf-base-ours-no-compact-$round" ours-no-compact memory-empty 0 -Dkubernetes.client.includeManagedFields=true
    figure "mf-full-ours-$round" ours memory-full "$count" -Dkubernetes.client.includeManagedFields=true
    figure "mf-full-ours-no-compact-$round" ours-no-compact memory-full "$count" -Dkubernetes.client.includeManagedFields=true
done
echo "== done $(date -u), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
