package dev.kubereconciler.autoconfigure;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cluster.KubeconfigClients;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;

/**
 * Settings of one cluster of the fleet under {@code kube-reconciler.clusters.<name>}:
 * where its kubeconfig is.
 */
public class ClusterProperties {

	private final Kubeconfig kubeconfig = new Kubeconfig();

	public Kubeconfig getKubeconfig() {
		return this.kubeconfig;
	}

	/**
	 * Where a cluster's kubeconfig is: a file, or a key of a Secret of the local cluster.
	 */
	public static class Kubeconfig {

		/**
		 * Kubeconfig file of the cluster; its current context is used.
		 */
		private @Nullable Path file;

		/**
		 * Secret of the local cluster holding the kubeconfig, as "namespace/name".
		 */
		private @Nullable String secret;

		/**
		 * Key of the Secret that holds the kubeconfig.
		 */
		private String key = KubeconfigClients.DEFAULT_KEY;

		public @Nullable Path getFile() {
			return this.file;
		}

		public void setFile(@Nullable Path file) {
			this.file = file;
		}

		public @Nullable String getSecret() {
			return this.secret;
		}

		public void setSecret(@Nullable String secret) {
			this.secret = secret;
		}

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

	}

	/**
	 * Kubeconfig Secrets of a namespace of the local cluster, followed live: each engages
	 * the cluster named by the Secret.
	 */
	public static class Secrets {

		/**
		 * Whether the Secrets of the namespace engage clusters.
		 */
		private boolean enabled;

		/**
		 * Namespace of the Secrets; required when enabled.
		 */
		private @Nullable String namespace;

		/**
		 * Label selector of the Secrets.
		 */
		private String labelSelector = KubeconfigSecretProvider.DEFAULT_LABEL_SELECTOR;

		/**
		 * Key of each Secret that holds the kubeconfig.
		 */
		private String key = KubeconfigClients.DEFAULT_KEY;

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

		public String getLabelSelector() {
			return this.labelSelector;
		}

		public void setLabelSelector(String labelSelector) {
			this.labelSelector = labelSelector;
		}

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

	}

}
