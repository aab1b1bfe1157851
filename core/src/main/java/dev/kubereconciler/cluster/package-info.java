/**
 * Many clusters from one manager, as multicluster-runtime adds them to
 * controller-runtime: a {@link dev.kubereconciler.cluster.ClusterProvider} discovers
 * clusters and engages or disengages them at run time through the manager's
 * {@link dev.kubereconciler.cluster.ClusterAware} side, and a controller's
 * {@link dev.kubereconciler.cluster.ClusterScope} says whether it runs on the local
 * cluster, on the fleet, or both.
 *
 * <p>
 * Public API: all of it. What each engaged cluster runs (its informers, client,
 * read-after-write view and Event recorder) is the manager's.
 */
@NullMarked
package dev.kubereconciler.cluster;

import org.jspecify.annotations.NullMarked;
