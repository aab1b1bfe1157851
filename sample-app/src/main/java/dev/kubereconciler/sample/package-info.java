/**
 * A sample service built on kube-reconciler: two controllers that share the manager
 * bucket.
 */
@NullMarked
package dev.kubereconciler.sample;

import org.jspecify.annotations.NullMarked;
