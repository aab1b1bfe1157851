package dev.kubereconciler.autoconfigure;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.kubernetes.client.openapi.ApiClient;

import dev.kubereconciler.cluster.AccessProviders;
import dev.kubereconciler.cluster.ClusterProfileProvider;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.cluster.ExecPlugin;
import dev.kubereconciler.cluster.KubeconfigClients;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;
import dev.kubereconciler.cluster.StaticClusterProvider;

/**
 * Turns {@code kube-reconciler.clusters.*}, {@code kube-reconciler.cluster-secrets.*} and
 * {@code kube-reconciler.cluster-profiles.*} into the manager's cluster providers,
 * refusing bad input with the property and the fix.
 */
final class ClusterSettings {

	private static final String CLUSTERS = "kube-reconciler.clusters.";

	private static final String SECRETS = "kube-reconciler.cluster-secrets.";

	private static final String PROFILES = "kube-reconciler.cluster-profiles.";

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
		if (properties.getClusterProfiles().isEnabled()) {
			providers.add(profiles(properties.getClusterProfiles(), hub));
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

	// the Secret strategy for a consumer, or the access provider strategy, as upstream
	// takes exactly one
	private static ClusterProvider profiles(ClusterProfileProperties profiles, ApiClient hub) {
		String namespace = profiles.getNamespace();
		if (namespace == null || namespace.isBlank()) {
			throw new InvalidPropertyException(PROFILES + "namespace", namespace,
					"the ClusterProfiles need a namespace",
					"Set it to the namespace of the ClusterProfiles, or set " + PROFILES + "enabled to false.");
		}
		String consumer = profiles.getConsumer();
		Path file = profiles.getAccessProvidersFile();
		boolean inline = !profiles.getAccessProviders().isEmpty();
		int strategies = ((consumer != null) ? 1 : 0) + ((file != null) ? 1 : 0) + (inline ? 1 : 0);
		if (strategies != 1) {
			throw new InvalidPropertyException(PROFILES + "consumer", consumer,
					(strategies == 0) ? "the ClusterProfiles have no way to their clusters"
							: "the ClusterProfiles have " + strategies + " ways to their clusters",
					"Set exactly one of " + PROFILES + "consumer (the Secret strategy), " + PROFILES
							+ "access-providers-file (the Cluster Inventory API's providers file) and " + PROFILES
							+ "access-providers.<name>.command (access providers by name).");
		}
		if (consumer != null) {
			return new ClusterProfileProvider(hub, namespace, consumer);
		}
		if (profiles.getExecTimeout().isNegative() || profiles.getExecTimeout().isZero()) {
			throw new InvalidPropertyException(PROFILES + "exec-timeout", profiles.getExecTimeout(), "not positive",
					"Set it to how long a plugin may run, such as 30s.");
		}
		AccessProviders accessProviders;
		if (file != null) {
			try {
				accessProviders = AccessProviders.fromFile(file);
			}
			catch (IllegalArgumentException | UncheckedIOException ex) {
				throw new InvalidPropertyException(PROFILES + "access-providers-file", file, ex.getMessage(),
						"Point it at a readable providers file, {\"providers\": [{\"name\": …, \"execConfig\": {…}}]}.");
			}
		}
		else {
			Map<String, ExecPlugin> plugins = new LinkedHashMap<>();
			profiles.getAccessProviders().forEach((name, provider) -> plugins.put(name, plugin(name, provider)));
			accessProviders = AccessProviders.of(plugins);
		}
		return new ClusterProfileProvider(hub, namespace, accessProviders.withTimeout(profiles.getExecTimeout()));
	}

	private static ExecPlugin plugin(String name, ClusterProfileProperties.AccessProvider provider) {
		String prefix = PROFILES + "access-providers." + name + ".";
		String command = provider.getCommand();
		if (command == null || command.isBlank()) {
			throw new InvalidPropertyException(prefix + "command", command, "the access provider has no exec plugin",
					"Set it to the plugin's executable, a path or a name on PATH.");
		}
		if (!ExecPlugin.V1.equals(provider.getApiVersion()) && !ExecPlugin.V1BETA1.equals(provider.getApiVersion())) {
			throw new InvalidPropertyException(prefix + "api-version", provider.getApiVersion(),
					"not an ExecCredential version",
					"Set it to " + ExecPlugin.V1 + " (the default) or " + ExecPlugin.V1BETA1 + ".");
		}
		return new ExecPlugin(command, provider.getArgs(), provider.getEnv(), provider.getApiVersion(),
				provider.isProvideClusterInfo());
	}

}
