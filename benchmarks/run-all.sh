#!/usr/bin/env bash
# Runs every benchmark of RESULTS.md with the settings recorded there, saving the raw output
# (text and JMH JSON) under benchmarks/results/. About 17 minutes on 2 cores; the webhook step
# adds about 5 and the startup step about 10.
#
# Usage: benchmarks/run-all.sh [STEP...]
#   steps: limiter queue dispatch observations memory e2e peers webhook startup diagnostics
#   (all by default; PEERS_ARGS sizes the peers step, e.g. "cold 5000 write 2000", and MEMORY its
#   memory figures, see peers.sh; WEBHOOK_ARGS the webhook step, by default RESULTS.md's
#   "rate 200 seconds 30 rounds 3 size 4096", see webhook.sh; STARTUP_ARGS the startup step,
#   e.g. "objects 1000 rounds 7", see startup.sh); OUT_DIR (default benchmarks/results)
#   receives the output.
#   The step profile (a JFR profile of every peer's cold start, RESULTS.md section 8, about 2
#   minutes) runs only when named; PROFILE_ARGS sizes it (default "5000 5", see
#   profile-cold-start.sh).
#   The step scale (100,000 ConfigMaps, RESULTS.md section 10) runs only when named: it takes about
#   30 minutes, most of it creating the ConfigMaps, and a 4 GiB heap per peer JVM. SCALE_ARGS sizes
#   it (default "count 100000 rounds 1", see scale.sh), SCALE_JVM and SCALE_DIR go to scale.sh.
# Needs `./mvnw -pl benchmarks -am package -DskipTests`, and `./dev setup` for the end-to-end, peers,
# webhook and startup runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$root/benchmarks/results}
steps=${*:-limiter queue dispatch observations memory e2e peers webhook startup diagnostics}
jar=$root/benchmarks/target/benchmarks.jar
mkdir -p "$out"
cd "$root"

machine() {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "nproc: $(nproc)"
    lscpu | grep -E 'Model name|Hypervisor vendor' | sed 's/  */ /g'
    echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
    java -version 2>&1
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
}

jmh() { # jmh NAME ARGS...: one JMH run, text and JSON
    local name=$1
    shift
    echo "== $name: java -jar benchmarks/target/benchmarks.jar $*" | tee "$out/$name.txt"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/$name.txt"
    timeout 1800 java -jar "$jar" "$@" -rf json -rff "$out/$name.json" >>"$out/$name.txt" 2>&1
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/$name.txt"
    sed -n '/^Benchmark /,$p' "$out/$name.txt"
}

want() { [[ " $steps " == *" $1 "* ]]; }

machine | tee "$out/machine-$(date -u +%Y%m%dT%H%M%SZ).txt"

settings=(-f 1 -wi 3 -w 2s -i 5 -r 2s)
if want limiter; then
    jmh limiter-t1 LimiterBenchmark -prof gc -t 1 "${settings[@]}"
    jmh limiter-t2 LimiterBenchmark -prof gc -t 2 "${settings[@]}"
fi
if want queue; then
    jmh queue-t1 'QueueBenchmark.addGetDone' -prof gc -t 1 "${settings[@]}"
    jmh queue-t2 'QueueBenchmark.addGetDone' -prof gc -t 2 "${settings[@]}"
    jmh queue-delayed 'QueueBenchmark.addAfter' -prof gc -t 1 "${settings[@]}"
fi
if want dispatch; then
    # 30 single shots of about 30 ms each: rank on the median, which one slow shot cannot move
    jmh dispatch DispatchBenchmark -prof gc -f 1 -wi 5 -i 30
    python3 - "$out/dispatch.json" <<'PY' | tee -a "$out/dispatch.txt"
import json, sys
for run in json.load(open(sys.argv[1])):
    metric = run["primaryMetric"]
    params = ",".join(f"{k}={v}" for k, v in sorted(run.get("params", {}).items()))
    print(f"median of {len(metric['rawData'][0])} shots  {run['benchmark'].rsplit('.', 1)[1]:<12} {params:<40} "
          f"{metric['scorePercentiles']['50.0']:8.2f} {metric['scoreUnit']}")
PY
fi
if want observations; then
    # dispatch with reconcile observations off, with a registry that has no handler, and on
    # (one handler that does nothing): 3 rounds, each running the three in a rotated order as
    # their own JMH runs, so that drift of the machine falls on each in turn; about 3 minutes
    order=(off noop on)
    for round in 1 2 3; do
        for variant in "${order[@]}"; do
            jmh "dispatch-observations-r$round-$variant" 'DispatchBenchmark.ours' -p limiter=default \
                -p queue=priority -p observations="$variant" -prof gc -f 1 -wi 5 -i 10 >/dev/null
        done
        order=("${order[@]:1}" "${order[0]}")
    done
    python3 - "$out" <<'PY' | tee "$out/dispatch-observations.txt"
import glob, json, os, statistics, sys
shots, alloc = {}, {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "dispatch-observations-r*-*.json"))):
    for run in json.load(open(path)):
        variant = run["params"]["observations"]
        shots.setdefault(variant, []).extend(run["primaryMetric"]["rawData"][0])
        norm = run.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score", float("nan"))
        alloc.setdefault(variant, []).append(norm / 100000)
for variant in ("off", "noop", "on"):
    if variant in shots:
        print(f"observations={variant:<5} median of {len(shots[variant])} shots in 3 rotating rounds "
              f"{statistics.median(shots[variant]):8.2f} ms  {statistics.median(alloc[variant]):8.1f} B/key, setup included")
PY
fi
if want memory; then
    echo "== memory" | tee "$out/memory.txt"
    timeout 900 java -XX:+UseSerialGC -Xmx4g -Djol.magicFieldOffset=true \
        -cp "$jar" dev.kubereconciler.benchmarks.LimiterMemory 1000000 3 --jol 2>&1 \
        | grep -v '^#\|^$' | tee -a "$out/memory.txt"
fi
if want e2e; then
    echo "== end to end" | tee "$out/e2e.txt"
    benchmarks/e2e.sh 100 3000 300 2>&1 | grep -v '^SLF4J' | tee -a "$out/e2e.txt"
fi
if want peers; then
    # whole controllers: ours, Java Operator SDK and client-java's DefaultController, one at a time
    {
        echo "== whole controllers: benchmarks/peers.sh ${PEERS_ARGS:-} (MEMORY=${MEMORY-10000 50000})"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        # shellcheck disable=SC2086
        benchmarks/peers.sh ${PEERS_ARGS:-} 2>&1
        echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$out/peers.txt"
fi
if want webhook; then
    # a validating webhook's latency through the API server, alternating with no webhook
    mkdir -p "$out/webhook"
    webhook_args=${WEBHOOK_ARGS:-rate 200 seconds 30 rounds 3 size 4096}
    {
        echo "== admission webhook latency: benchmarks/webhook.sh $webhook_args"
        echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        # shellcheck disable=SC2086
        benchmarks/webhook.sh $webhook_args 2>&1 || echo "webhook.sh exited with status $?"
        echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$out/webhook/latency.txt"
fi
if want profile; then
    echo "== cold-start profile: benchmarks/profile-cold-start.sh ${PROFILE_ARGS:-5000 5}" | tee "$out/profile-cold-start.txt"
    # shellcheck disable=SC2086 # PROFILE_ARGS is a list of words
    benchmarks/profile-cold-start.sh ${PROFILE_ARGS:-5000 5} 2>&1 | tee -a "$out/profile-cold-start.txt"
fi
if want scale; then
    # every peer's cold start, peak heap during the initial list and live bytes per object,
    # each peer in a fresh JVM, ours paged and unpaged
    mkdir -p "$out/scale"
    scale_args=${SCALE_ARGS:-count 100000 rounds 1}
    {
        echo "== 100,000 objects: benchmarks/scale.sh $scale_args"
        echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
        # shellcheck disable=SC2086
        benchmarks/scale.sh $scale_args 2>&1 || echo "scale.sh exited with status $?"
    } | tee "$out/scale/scale.txt"
fi
if want startup; then
    # from the launch of a JVM to the first reconcile of the last of 1,000 ConfigMaps: the plain
    # jar, CDS, Spring AOT + CDS, a JDK 25 AOT cache, and Java Operator SDK; rotating rounds
    {
        echo "== start-up: benchmarks/startup.sh ${STARTUP_ARGS:-} (AUTH=${AUTH:-token})"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
        # shellcheck disable=SC2086
        benchmarks/startup.sh ${STARTUP_ARGS:-} 2>&1
        echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$out/startup.txt"
fi
if want diagnostics; then
    # not results: how much of our queue and dispatch time is spent reading the clock
    jmh diagnostic-queue-clock 'QueueBenchmark.addGetDoneOurs' -p ticker=system,frozen -t 1 "${settings[@]}"
    jmh diagnostic-dispatch-clock 'DispatchBenchmark.ours' -p limiter=default -p ticker=system,frozen -f 1 -wi 5 -i 15
    # where our workers spend their time
    timeout 600 java -jar "$jar" 'DispatchBenchmark.ours' -p limiter=none -f 1 -wi 5 -i 30 \
        -prof 'stack:lines=4;top=12' >"$out/diagnostic-dispatch-stack.txt" 2>&1
fi
