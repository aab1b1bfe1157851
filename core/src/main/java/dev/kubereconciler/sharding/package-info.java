/**
 * Sharding of reconcile keys across replicas: the partition function, the balanced
 * assignment of partitions to live members, the dispatch rule and the handover, and the
 * {@code coordination.k8s.io} Leases that coordinate them. Plain Java, no Spring.
 */
@NullMarked
package dev.kubereconciler.sharding;

import org.jspecify.annotations.NullMarked;
