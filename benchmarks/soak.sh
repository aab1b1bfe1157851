#!/usr/bin/env bash
# The soak (issue 42): three leader-elected replicas of the sample, deployed from its
# generated manifests against the real test API server, each behind a FaultProxy of its own,
# under steady Widget churn while faults are injected one after another (latency spike,
# resets of every connection and of the watches, a partition of the leader, an etcd
# compaction under held watches, a replica SIGKILLed and restarted by the pod runner, an
# API server restart). Figures per minute in <output>/minutes.csv, report.md and chart.svg;
# the replicas' logs in <output>/logs. Exits non-zero on any acceptance breach: a widget in
# a wrong final state, a key reconciled by two replicas at once, a fault not recovered
# within its bound, heap after GC, threads or open files of r1 rising more than 10% from
# minute 10 on (runs of 20 minutes or more).
#
#   benchmarks/soak.sh --minutes 60 [--output benchmarks/results/soak-60]
#
# It is SoakTests of the sample app at another size; the default build runs it at 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=2
output=""
while [[ $# -gt 0 ]]; do
	case "$1" in
		--minutes) minutes="$2"; shift 2 ;;
		--output) output="$2"; shift 2 ;;
		-h|--help) sed -n '2,16p' "$0"; exit 0 ;;
		*) echo "Unknown argument $1; use --minutes N and --output DIR" >&2; exit 2 ;;
	esac
done
if ! [[ "$minutes" =~ ^[1-9][0-9]*$ ]]; then
	echo "Set --minutes to a whole number of minutes, 1 or more, such as --minutes 60" >&2
	exit 2
fi
output="$(mkdir -p "${output:-benchmarks/results/soak-$minutes}" && cd "${output:-benchmarks/results/soak-$minutes}" && pwd)"

echo "soak: $minutes minutes, output in $output; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
set +e
./mvnw -B -o -pl sample-app -am verify -Dtest=SoakTests -Dsurefire.failIfNoSpecifiedTests=false \
	-Dmaven.source.skip -Dmaven.javadoc.skip -Dinvoker.skip \
	-Dkube-reconciler.soak.minutes="$minutes" -Dkube-reconciler.soak.output="$output" \
	2>&1 | tee "$output/console.log"
status=${PIPESTATUS[0]}
set -e
echo "soak: exit $status; report $output/report.md; load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
