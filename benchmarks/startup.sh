#!/usr/bin/env bash
# Runs the start-up benchmark (StartupRounds): the minimal application of benchmarks/startup-app
# in each configuration (plain jar, CDS, Spring AOT + CDS, a JDK 25 AOT cache) and Java Operator
# SDK's plain Operator, each timed from the launch of its JVM to the first reconcile of the last of
# N ConfigMaps, by parts (main, beans, the first list, the sync, the first reconciles, the classes
# loaded at each, Spring's start-up steps), beside a bare Spring Boot application with Actuator that
# lists them with client-java (the floor), against a throwaway etcd + kube-apiserver on loopback.
# Training runs come first and are not measured.
#
# Usage: benchmarks/startup.sh [objects N] [rounds R] [configurations a,b,...] [java25 JAVA|none]
#   (default 1000 objects, 5 rounds, every configuration; see StartupRounds)
#   AUTH        token (default): the clients authenticate with a static bearer token, as a pod
#               does with its ServiceAccount token; certificate: with the test server's EC client
#               certificate, which client-java reads through BouncyCastle and fabric8 cannot read
#               as it is (StartupRounds hands it a rewritten copy)
#   API_PORT / ETCD_PORT  loopback ports (default 27543 / 27479; etcd peers use ETCD_PORT+1)
# Needs `./dev setup` and `./mvnw -pl benchmarks -am package -DskipTests`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${KUBE_RECONCILER_SHARED:-$root/../shared}
assets=${XDG_CACHE_HOME:-$HOME/.cache}/kube-reconciler/assets
if [ -z "${KUBE_APISERVER:-}" ] && [ -x "$assets/kube-apiserver" ]; then
    export KUBE_APISERVER=$assets/kube-apiserver
fi
jar=$root/benchmarks/target/benchmarks.jar
run=$(mktemp -d -t kube-reconciler-startup.XXXXXX)
stop() {
    "$shared/kube-apiserver/start.sh" --stop "$run" || true
    rm -rf "$run"
}
trap stop EXIT

token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
echo "$token,startup-admin,startup-admin,\"system:masters\"" >"$run/tokens.csv"
APISERVER_ARGS="--token-auth-file=$run/tokens.csv" \
    "$shared/kube-apiserver/start.sh" "$run" "${API_PORT:-27543}" "${ETCD_PORT:-27479}"
kubeconfig=$run/kubeconfig
if [ "${AUTH:-token}" = token ]; then
    kubeconfig=$run/kubeconfig-token
    cat >"$kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: https://127.0.0.1:${API_PORT:-27543}
    certificate-authority: $run/pki/ca.crt
users:
- name: test
  user:
    token: $token
contexts:
- name: test
  context: {cluster: test, user: test}
current-context: test
YAML
fi

cd "$root"
timeout 3600 java -cp "$jar" dev.kubereconciler.benchmarks.StartupRounds "$kubeconfig" work "$run/work" "$@" 2>&1 \
    | grep -v '^SLF4J'
