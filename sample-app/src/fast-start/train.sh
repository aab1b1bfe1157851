#!/usr/bin/env bash
# Prepares a Spring Boot jar for a faster start (docs/deploying.md, "Faster start-up"): extracts it
# into OUT (the application jar, lib/), then trains the JVM's archive with a run that exits once the
# application context refreshed, before the controllers start, so it needs no cluster:
#   on JDK 25 and later, an AOT cache  (OUT/app.aot,  run with -XX:AOTCache=app.aot)
#   on JDK 17 to 24, a CDS archive     (OUT/app.jsa,  run with -XX:SharedArchiveFile=app.jsa)
# both with Spring AOT's initializer (-Dspring.aot.enabled=true), so the jar must have been built
# with spring-boot-maven-plugin's process-aot goal. The flags to run with go to OUT/jvm-options.
# The archive works only on the same JDK build that trained it: train with the JDK you run on.
#
# Usage: train.sh JAR OUT [JAVA]      JAVA defaults to java on the PATH
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
jar=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
java=${3:-java}
app=$(basename "$jar")

rm -rf "$out"
"$java" -Djarmode=tools -jar "$jar" extract --destination "$out"
version=$("$java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
cd "$out"
# relative paths, so that the folder can move: the AOT cache allows it, CDS on JDK 17 does not
if [ "${version%%.*}" -ge 25 ]; then
    flags="-XX:AOTCache=app.aot -Dspring.aot.enabled=true"
    "$java" -XX:AOTCacheOutput=app.aot -Dspring.aot.enabled=true -Dspring.context.exit=onRefresh -jar "$app"
else
    flags="-XX:SharedArchiveFile=app.jsa -Dspring.aot.enabled=true"
    "$java" -XX:ArchiveClassesAtExit=app.jsa -Dspring.aot.enabled=true -Dspring.context.exit=onRefresh -jar "$app"
fi
echo "$flags" >jvm-options
echo "fast start ready in $out (Java $version); run it from there with:"
echo "  java $flags -jar $app"
