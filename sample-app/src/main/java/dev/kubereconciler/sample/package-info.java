/**
 * A sample service built on kube-reconciler: two controllers that share the manager bucket.
 */
package dev.kubereconciler.sample;
