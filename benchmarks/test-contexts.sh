#!/usr/bin/env bash
# The greeting example's test contexts in one JVM: GreetingOperatorTests (the first context, which
# also starts the test API server), then CONTEXTS more classes of one test each, every one with a
# configuration of its own, so that each starts a context. Prints each class's wall and main-thread
# CPU time and the test module's "refreshed in" line for each context, ROUNDS times, with the load.
#   benchmarks/test-contexts.sh [ROUNDS] [CONTEXTS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
contexts=${2:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
example=$root/examples/greeting-operator
cd "$root"
./mvnw -B -o -q -pl examples/greeting-operator -am test-compile dependency:build-classpath \
    -Dmdep.outputFile='${project.build.directory}/test-contexts.classpath' -Dmdep.includeScope=test
launcher=$(find ~/.m2/repository/org/junit/platform/junit-platform-launcher -name "junit-platform-launcher-$(
    tr ':' '\n' <"$example/target/test-contexts.classpath" | grep -o 'junit-platform-engine-[0-9.]*[0-9]' | head -1 |
    sed 's/junit-platform-engine-//').jar" | head -1)
cp="$example/target/test-classes:$example/target/classes:$(cat "$example/target/test-contexts.classpath"):$launcher"
classes=(com.example.greeting.GreetingOperatorTests)
mkdir -p "$work/src" "$work/classes"
for i in $(seq 2 $((contexts + 1))); do
    sed "s/NUMBER/$i/g" benchmarks/test-contexts/ContextProbeTemplate.java >"$work/src/Context${i}ProbeTests.java"
    classes+=("com.example.greeting.Context${i}ProbeTests")
done
javac -d "$work/classes" -cp "$cp" benchmarks/test-contexts/ContextRounds.java "$work"/src/*.java
cd "$example"
for round in $(seq 1 "$rounds"); do
    echo "== round $round, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    java -cp "$work/classes:$cp" ContextRounds "${classes[@]}" >"$work/round.log" 2>&1 || { cat "$work/round.log"; exit 1; }
    grep -oE 'Test application context [0-9]+ of this JVM, for [A-Za-z0-9]+, refreshed in [0-9]+ ms|CLASS .*' "$work/round.log"
    echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
