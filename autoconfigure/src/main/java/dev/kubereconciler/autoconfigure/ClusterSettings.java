package dev.kubereconciler.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.kubernetes.client.openapi.ApiClient;

import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.cluster.KubeconfigClients;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;
import dev.kubereconciler.cluster.StaticClusterProvider;

/**
 * Turns {@code kube-reconciler.clusters.*} and {@code kube-reconciler.cluster-secrets.*}
 * into the manager's cluster providers, refusing bad input with the property and the fix.
 */
final class ClusterSettings {

	private static final String CLUSTERS = "kube-reconciler.clusters.";

	private static final String SECRETS = "kube-reconciler.cluster-secrets.";

	private ClusterSettings() {
	}

	static List<ClusterProvider> providers(KubeReconcilerProperties properties, ApiClient hub) {
		List<ClusterProvider> providers = new ArrayList<>();
		Map<String, Callable<ApiClient>> clusters = new LinkedHashMap<>();
		properties.getClusters().forEach((name, cluster) -> clusters.put(name, connect(name, cluster, hub)));
		if (!clusters.isEmpty()) {
			providers.add(new StaticClusterProvider(clusters));
		}
		ClusterProperties.Secrets secrets = properties.getClusterSecrets();
		if (secrets.isEnabled()) {
			String namespace = secrets.getNamespace();
			if (namespace == null || namespace.isBlank()) {
				throw new InvalidPropertyException(SECRETS + "namespace", namespace,
						"the kubeconfig Secrets need a namespace",
						"Set it to the namespace of the Secrets, or set " + SECRETS + "enabled to false.");
			}
			providers.add(new KubeconfigSecretProvider(hub, namespace, secrets.getLabelSelector(), secrets.getKey()));
		}
		return providers;
	}

	private static Callable<ApiClient> connect(String name, ClusterProperties cluster, ApiClient hub) {
		String prefix = CLUSTERS + name + ".kubeconfig";
		Path file = cluster.getKubeconfig().getFile();
		String secret = cluster.getKubeconfig().getSecret();
		if ((file == null) == (secret == null)) {
			throw new InvalidPropertyException(prefix, (file != null) ? file + ", " + secret : null,
					(file == null) ? "the cluster has no kubeconfig" : "the cluster has two kubeconfigs",
					"Set exactly one of " + prefix + ".file (a kubeconfig file) and " + prefix
							+ ".secret (a Secret of the local cluster, as namespace/name).");
		}
		if (file != null) {
			return () -> KubeconfigClients.fromFile(file);
		}
		int slash = secret.indexOf('/');
		if (slash <= 0 || slash == secret.length() - 1 || secret.indexOf('/', slash + 1) >= 0) {
			throw new InvalidPropertyException(prefix + ".secret", secret, "not a Secret reference",
					"Write it as namespace/name, such as fleet/cluster-east.");
		}
		String key = cluster.getKubeconfig().getKey();
		return () -> KubeconfigClients.fromSecret(hub, secret.substring(0, slash), secret.substring(slash + 1), key);
	}

}
