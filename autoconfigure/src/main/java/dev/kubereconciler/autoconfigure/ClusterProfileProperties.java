package dev.kubereconciler.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cluster.AccessProviders;
import dev.kubereconciler.cluster.ExecPlugin;

/**
 * The Cluster Inventory API's ClusterProfiles of a namespace of the local cluster under
 * {@code kube-reconciler.cluster-profiles}, each engaging its cluster with a kubeconfig
 * Secret for a consumer or with an access provider's exec plugin.
 */
public class ClusterProfileProperties {

	/**
	 * Whether the ClusterProfiles of the namespace engage clusters.
	 */
	private boolean enabled;

	/**
	 * Namespace of the ClusterProfiles; required when enabled.
	 */
	private @Nullable String namespace;

	/**
	 * Consumer name of the Secret strategy: each profile's kubeconfig is in a Secret
	 * labelled x-k8s.io/cluster-inventory-consumer with it. Set it or the access
	 * providers, not both.
	 */
	private @Nullable String consumer;

	/**
	 * Providers file of the access provider strategy, as the Cluster Inventory API's
	 * --clusterprofile-provider-file: JSON, {"providers": [{"name", "execConfig"}]}.
	 */
	private @Nullable Path accessProvidersFile;

	/**
	 * Access providers of the access provider strategy by name, in the order of
	 * preference, each an exec plugin; instead of the providers file.
	 */
	private final Map<String, AccessProvider> accessProviders = new LinkedHashMap<>();

	/**
	 * How long an access provider's exec plugin may run before it is stopped.
	 */
	private Duration execTimeout = AccessProviders.DEFAULT_TIMEOUT;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public @Nullable String getConsumer() {
		return this.consumer;
	}

	public void setConsumer(@Nullable String consumer) {
		this.consumer = consumer;
	}

	public @Nullable Path getAccessProvidersFile() {
		return this.accessProvidersFile;
	}

	public void setAccessProvidersFile(@Nullable Path accessProvidersFile) {
		this.accessProvidersFile = accessProvidersFile;
	}

	public Map<String, AccessProvider> getAccessProviders() {
		return this.accessProviders;
	}

	public Duration getExecTimeout() {
		return this.execTimeout;
	}

	public void setExecTimeout(Duration execTimeout) {
		this.execTimeout = execTimeout;
	}

	/**
	 * One access provider: the exec plugin that prints a cluster's credential, as a
	 * kubeconfig's user.exec.
	 */
	public static class AccessProvider {

		/**
		 * Executable of the plugin, a path or a name found on PATH.
		 */
		private @Nullable String command;

		/**
		 * Arguments of the plugin.
		 */
		private List<String> args = new ArrayList<>();

		/**
		 * Environment variables added to the plugin's.
		 */
		private Map<String, String> env = new LinkedHashMap<>();

		/**
		 * ExecCredential version the plugin speaks.
		 */
		private String apiVersion = ExecPlugin.V1;

		/**
		 * Whether the plugin is given the cluster's server, CA and exec extension in
		 * KUBERNETES_EXEC_INFO.
		 */
		private boolean provideClusterInfo = true;

		public @Nullable String getCommand() {
			return this.command;
		}

		public void setCommand(@Nullable String command) {
			this.command = command;
		}

		public List<String> getArgs() {
			return this.args;
		}

		public void setArgs(List<String> args) {
			this.args = args;
		}

		public Map<String, String> getEnv() {
			return this.env;
		}

		public void setEnv(Map<String, String> env) {
			this.env = env;
		}

		public String getApiVersion() {
			return this.apiVersion;
		}

		public void setApiVersion(String apiVersion) {
			this.apiVersion = apiVersion;
		}

		public boolean isProvideClusterInfo() {
			return this.provideClusterInfo;
		}

		public void setProvideClusterInfo(boolean provideClusterInfo) {
			this.provideClusterInfo = provideClusterInfo;
		}

	}

}
