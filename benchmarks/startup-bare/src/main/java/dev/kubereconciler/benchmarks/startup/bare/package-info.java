/**
 * The floor of the start-up benchmark ({@code benchmarks/startup.sh}): a bare Spring Boot
 * application with Actuator and nothing of kube-reconciler, and client-java's list.
 */
@NullMarked
package dev.kubereconciler.benchmarks.startup.bare;

import org.jspecify.annotations.NullMarked;
