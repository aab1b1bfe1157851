#!/usr/bin/env bash
# Profiles the cold start of ControllerPeers' peers with JFR (a profile, not a figure): runs
# `ControllerPeers KUBECONFIG cold N write 0 rate 0 rounds K` with execution samples every 1 ms
# against a throwaway etcd + kube-apiserver on loopback, then sorts the samples taken during our
# cold starts and the bare client's (after the warm-up) into categories by their stack frames.
#
# Usage: benchmarks/profile-cold-start.sh [N] [K]   (default 5000 objects, 5 rounds)
#   API_PORT / ETCD_PORT  loopback ports (default 28443 / 28379)
#   JFR_JDK               a JDK 21 or later for `jfr` (default: the Temurin 25 JDK, else `jfr`)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`; RESULTS.md section 8.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
count=${1:-5000}
rounds=${2:-5}
jfr=${JFR_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
[ -x "$jfr" ] || jfr=jfr
run=$(mktemp -d -t kube-reconciler-profile.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT
"$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-28443}" "${ETCD_PORT:-28379}" >/dev/null
"$jfr" configure --input profile jdk.ExecutionSample#period=1ms --output "$run/samples.jfc" >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms3g -Xmx3g \
    "-XX:StartFlightRecording=filename=$run/cold.jfr,settings=$run/samples.jfc" \
    -cp "$root/benchmarks/target/benchmarks.jar" dev.kubereconciler.benchmarks.ControllerPeers "$run/kubeconfig" \
    cold "$count" write 0 rate 0 seconds 0 rounds "$rounds" 2>&1 | grep --line-buffered -v '^SLF4J\|^Started recording\|^Use jcmd'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$jfr" print --events jdk.ExecutionSample --stack-depth 40 "$run/cold.jfr" >"$run/samples.txt"
python3 - "$run/samples.txt" "$rounds" <<'PY'
import collections, re, sys

events = []
for block in open(sys.argv[1]).read().split('jdk.ExecutionSample {')[1:]:
    time = re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)', block)
    seconds = int(time[1]) * 3600 + int(time[2]) * 60 + int(time[3]) + float('0.' + time[4])
    thread = re.search(r'sampledThread = "([^"]*)"', block)[1]
    frames = [line.strip() for line in block.split('stackTrace = [')[1].split(']')[0].splitlines() if line.strip()]
    events.append((seconds, thread, ' '.join(frames)))
events.sort()

def windows(marker, rounds, slack):
    """The time spans in which a marker frame is sampled, split by pauses of 0.5 s; the last
    `rounds` of them are the measured cold starts (the warm-up's come first)."""
    spans = []
    for seconds, _, stack in events:
        if marker in stack:
            if spans and seconds - spans[-1][1] < 0.5:
                spans[-1][1] = seconds
            else:
                spans.append([seconds, seconds])
    return [(start, end + slack) for start, end in spans[-rounds:]]

categories = [
    ('JSON decoding (Gson)', ['com.google.gson', 'JSON.deserialize']),
    ('UTF-8 decoding', ['UTF_8$Decoder']),
    ('HTTP and TLS reads', ['okhttp3', 'okio', 'sun.security.ssl', 'NioSocketImpl']),
    ('cache transform: compaction', ['CacheCompactor', 'BoundedInterner']),
    ('cache transform: the rest', ['CacheTransforms']),
    ('store', ['NamespacedIndexer', 'informer.cache.Cache.']),
    ('informer queue (DeltaFIFO)', ['DeltaFIFO']),
    ('informer dispatch and our event handler', ['SharedProcessor', 'ProcessorListener', 'InformerWiring',
                                                 'UpdateFilterChain', 'EventPriority', 'DefaultSharedIndexInformer']),
    ('work queue', ['internal.queue']),
    ('workers and the no-op reconcile', ['ReconcileWorker', 'OursPeer', 'BarePeer', 'ThreadPoolExecutor']),
]

def report(name, spans):
    samples = [event for event in events if any(start <= event[0] <= end for start, end in spans)]
    per = len(spans)
    print(f'== {name}: {per} cold starts, {len(samples) / per:.0f} samples each (every thread, 1 ms period)')
    counts = collections.Counter()
    for _, _, stack in samples:
        counts[next((label for label, keys in categories if any(key in stack for key in keys)), 'other')] += 1
    for label, count in counts.most_common():
        print(f'  {count / per:6.1f} per cold start  {100 * count / len(samples):5.1f}%  {label}')

rounds = int(sys.argv[2])
report('kube-reconciler', windows('ScopedListerWatcher', rounds, 0.05))
report('bare client', windows('BarePeer', rounds, 0.01))
PY
