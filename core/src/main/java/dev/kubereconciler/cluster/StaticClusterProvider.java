package dev.kubereconciler.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engages a fixed list of clusters when the manager starts, as
 * {@code kube-reconciler.clusters.<name>} lists them. A cluster whose client cannot be
 * made (an unreadable file, a missing Secret) is logged and left out; the others are
 * engaged.
 */
public final class StaticClusterProvider implements ClusterProvider {

	private static final Logger logger = LoggerFactory.getLogger(StaticClusterProvider.class);

	private final Map<String, Callable<ApiClient>> clusters;

	/**
	 * Create the provider.
	 * @param clusters what makes each cluster's client, by cluster name
	 */
	public StaticClusterProvider(Map<String, Callable<ApiClient>> clusters) {
		this.clusters = new LinkedHashMap<>(clusters);
	}

	@Override
	public void start(ClusterAware aware) {
		this.clusters.forEach((name, client) -> {
			try {
				aware.engage(name, client.call());
			}
			catch (Exception ex) {
				logger.error("Cluster '{}' is not engaged: {}", name, ex.getMessage(), ex);
			}
		});
	}

	@Override
	public void stop() {
	}

}
