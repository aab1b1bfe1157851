package dev.kubereconciler.cluster;

/**
 * Discovers the clusters of a fleet and engages and disengages them while the manager
 * runs, as multicluster-runtime's {@code Provider}: a static list, kubeconfigs held in
 * Secrets, or an inventory of one's own.
 */
public interface ClusterProvider {

	/**
	 * Start discovering: engage the clusters known now, and go on engaging and
	 * disengaging them as they come and go until {@link #stop()}. Called once the
	 * manager's local caches synced; it must not block.
	 * @param clusters what to tell
	 */
	void start(ClusterAware clusters);

	/**
	 * Stop discovering; the manager disengages the clusters this provider engaged.
	 */
	void stop();

}
