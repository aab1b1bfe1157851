/**
 * A JUnit 5 harness that runs a real etcd and kube-apiserver on loopback, envtest-style.
 */
package dev.kubereconciler.test;
