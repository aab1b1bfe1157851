package dev.kubereconciler.cluster;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretList;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engages a cluster for each Secret of a namespace that matches a label selector and
 * holds a kubeconfig, as multicluster-runtime's kubeconfig provider: the cluster takes
 * the Secret's name; a new Secret engages its cluster, a changed kubeconfig engages it
 * anew, and a deleted Secret (or one that no longer matches) disengages it.
 */
public final class KubeconfigSecretProvider implements ClusterProvider {

	/** The label selector of kubeconfig Secrets, by default, multicluster-runtime's. */
	public static final String DEFAULT_LABEL_SELECTOR = "sigs.k8s.io/multicluster-runtime-kubeconfig=true";

	private static final Logger logger = LoggerFactory.getLogger(KubeconfigSecretProvider.class);

	private final ApiClient hub;

	private final String namespace;

	private final String labelSelector;

	private final String key;

	// the kubeconfig each engaged cluster was engaged with, by cluster name
	private final Map<String, String> engaged = new ConcurrentHashMap<>();

	private @Nullable SharedInformerFactory factory;

	/**
	 * Create the provider.
	 * @param hub the client of the cluster holding the Secrets, with no read timeout
	 * @param namespace the Secrets' namespace
	 * @param labelSelector the label selector of the Secrets, such as
	 * {@link #DEFAULT_LABEL_SELECTOR}
	 * @param key the key of the kubeconfig in each Secret, such as
	 * {@link KubeconfigClients#DEFAULT_KEY}
	 */
	public KubeconfigSecretProvider(ApiClient hub, String namespace, String labelSelector, String key) {
		this.hub = Objects.requireNonNull(hub, "hub must not be null");
		this.namespace = requireText(namespace, "namespace");
		this.labelSelector = Objects.requireNonNull(labelSelector, "labelSelector must not be null");
		this.key = requireText(key, "key");
	}

	/**
	 * Return the namespace whose Secrets this provider lists and watches on the hub.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	private static String requireText(String value, String name) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException(name + " must not be empty");
		}
		return value;
	}

	@Override
	public synchronized void start(ClusterAware clusters) {
		SharedInformerFactory factory = new SharedInformerFactory(this.hub);
		SharedIndexInformer<V1Secret> informer = factory.sharedIndexInformerFor(new SecretListerWatcher(),
				V1Secret.class, 0);
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1Secret secret) {
				engage(clusters, secret);
			}

			@Override
			public void onUpdate(V1Secret old, V1Secret secret) {
				engage(clusters, secret);
			}

			@Override
			public void onDelete(V1Secret secret, boolean finalStateUnknown) {
				String name = secret.getMetadata().getName();
				if (KubeconfigSecretProvider.this.engaged.remove(name) != null) {
					clusters.disengage(name);
				}
			}

		});
		factory.startAllRegisteredInformers();
		this.factory = factory;
	}

	private void engage(ClusterAware clusters, V1Secret secret) {
		String name = secret.getMetadata().getName();
		try {
			String kubeconfig = KubeconfigClients.kubeconfig(secret, this.key);
			if (kubeconfig.equals(this.engaged.get(name))) {
				return;
			}
			clusters.engage(name, KubeconfigClients.fromYaml(kubeconfig, "the Secret " + this.namespace + "/" + name));
			this.engaged.put(name, kubeconfig);
		}
		catch (RuntimeException ex) {
			logger.error("Cluster '{}' is not engaged: {}", name, ex.getMessage(), ex);
		}
	}

	@Override
	public synchronized void stop() {
		SharedInformerFactory factory = this.factory;
		if (factory != null) {
			factory.stopAllRegisteredInformers(true);
			this.factory = null;
		}
		this.engaged.clear();
	}

	/**
	 * Lists and watches the Secrets of the namespace that match the selector.
	 */
	private final class SecretListerWatcher implements ListerWatcher<V1Secret, V1SecretList> {

		private final GenericKubernetesApi<V1Secret, V1SecretList> secrets = new GenericKubernetesApi<>(V1Secret.class,
				V1SecretList.class, "", "v1", "secrets", KubeconfigSecretProvider.this.hub);

		@Override
		public V1SecretList list(CallGeneratorParams params) throws ApiException {
			ListOptions options = options(params);
			return this.secrets.list(KubeconfigSecretProvider.this.namespace, options).throwsApiException().getObject();
		}

		@Override
		public Watchable<V1Secret> watch(CallGeneratorParams params) throws ApiException {
			return this.secrets.watch(KubeconfigSecretProvider.this.namespace, options(params));
		}

		private ListOptions options(CallGeneratorParams params) {
			ListOptions options = new ListOptions();
			options.setLabelSelector(KubeconfigSecretProvider.this.labelSelector);
			options.setResourceVersion(params.resourceVersion);
			options.setTimeoutSeconds(params.timeoutSeconds);
			return options;
		}

	}

}
