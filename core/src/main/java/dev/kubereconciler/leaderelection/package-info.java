/**
 * Leader election through a {@code coordination.k8s.io/v1} Lease: the settings, and the
 * runner that makes this instance a candidate again after it lost leadership.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.leaderelection.LeaderElectionSettings}; the
 * runner is public only for the manager.
 */
@NullMarked
package dev.kubereconciler.leaderelection;

import org.jspecify.annotations.NullMarked;
