/**
 * JMH benchmarks and harnesses that measure kube-reconciler side by side with
 * kubernetes-client/java; results and the commands that produce them are in
 * {@code benchmarks/RESULTS.md}.
 */
@NullMarked
package dev.kubereconciler.benchmarks;

import org.jspecify.annotations.NullMarked;
