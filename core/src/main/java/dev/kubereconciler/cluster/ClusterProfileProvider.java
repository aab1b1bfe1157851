package dev.kubereconciler.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.google.gson.Gson;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
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

import dev.kubereconciler.model.CustomResourceList;

/**
 * Engages a cluster for each {@link ClusterProfile} of a namespace of the hub whose
 * control plane is healthy, with the kubeconfig of its Secret, as multicluster-runtime's
 * Cluster Inventory API provider reads it with its Secret strategy: the Secret lives in
 * the profile's namespace, is labelled {@value #CONSUMER_LABEL} with the consumer's name
 * and {@value #PROFILE_LABEL} with the profile's, and holds the kubeconfig under
 * {@value #KUBECONFIG_KEY}. The cluster takes the profile's name. A profile is engaged
 * while it is healthy and has exactly one such Secret; a deleted profile, one whose
 * {@value ClusterProfile#CONTROL_PLANE_HEALTHY} condition leaves {@code True}, or one
 * that loses its Secret is disengaged, and a changed kubeconfig engages it anew.
 *
 * <p>
 * With {@link AccessProviders} instead of a consumer's name, the profile's own status
 * tells how to reach the cluster, as upstream's access provider strategy reads it: the
 * first access provider known to the consumer among those the profile lists gives the
 * server and CA, and that provider's exec plugin the credential, run again before the
 * credential expires. A plugin that fails leaves the cluster out, logged with its exit
 * code and stderr, and is tried again with a backoff of one second doubling to two
 * minutes.
 */
public final class ClusterProfileProvider implements ClusterProvider {

	/** The label naming the consumer a kubeconfig Secret is meant for. */
	public static final String CONSUMER_LABEL = "x-k8s.io/cluster-inventory-consumer";

	/** The label naming the ClusterProfile a kubeconfig Secret is for. */
	public static final String PROFILE_LABEL = "x-k8s.io/cluster-profile";

	/** The key of the kubeconfig in the Secret. */
	public static final String KUBECONFIG_KEY = "Config";

	private static final Logger logger = LoggerFactory.getLogger(ClusterProfileProvider.class);

	private static final Duration FIRST_RETRY = Duration.ofSeconds(1);

	private static final Duration LAST_RETRY = Duration.ofMinutes(2);

	private final ApiClient hub;

	private final String namespace;

	private final @Nullable String consumer;

	private final @Nullable AccessProviders accessProviders;

	// what each engaged cluster was engaged with (its kubeconfig or its access), by
	// profile name
	private final Map<String, Object> engaged = new ConcurrentHashMap<>();

	// the next wait before trying again a cluster whose plugin failed, by profile name
	private final Map<String, Duration> retries = new ConcurrentHashMap<>();

	private @Nullable Running running;

	/**
	 * Create the provider.
	 * @param hub the client of the cluster holding the profiles and their Secrets, with
	 * no read timeout
	 * @param namespace the namespace of the profiles
	 * @param consumer the consumer's name, the value of {@value #CONSUMER_LABEL} on the
	 * Secrets meant for this manager
	 */
	public ClusterProfileProvider(ApiClient hub, String namespace, String consumer) {
		this.hub = Objects.requireNonNull(hub, "hub must not be null");
		this.namespace = requireText(namespace, "namespace");
		this.consumer = requireText(consumer, "consumer");
		this.accessProviders = null;
	}

	/**
	 * Create the provider with the access provider strategy: each profile's status names
	 * the access providers that reach its cluster.
	 * @param hub the client of the cluster holding the profiles, with no read timeout
	 * @param namespace the namespace of the profiles
	 * @param accessProviders the access providers this manager knows, each an exec plugin
	 */
	public ClusterProfileProvider(ApiClient hub, String namespace, AccessProviders accessProviders) {
		this.hub = Objects.requireNonNull(hub, "hub must not be null");
		this.namespace = requireText(namespace, "namespace");
		this.consumer = null;
		this.accessProviders = Objects.requireNonNull(accessProviders, "accessProviders must not be null");
	}

	/**
	 * Return the namespace whose profiles and Secrets this provider lists and watches on
	 * the hub.
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
		// one thread decides for every profile, so the events of a profile and of its
		// Secret are applied in the order they came
		ScheduledExecutorService decisions = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "cluster-profiles");
			thread.setDaemon(true);
			return thread;
		});
		SharedInformerFactory factory = new SharedInformerFactory(this.hub);
		SharedIndexInformer<ClusterProfile> profiles = factory.sharedIndexInformerFor(
				new NamespacedListerWatcher<>(CustomResourceList.api(ClusterProfile.class, this.hub), null),
				ClusterProfile.class, 0);
		SharedIndexInformer<V1Secret> secrets = null;
		if (this.consumer != null) {
			secrets = factory.sharedIndexInformerFor(
					new NamespacedListerWatcher<>(new GenericKubernetesApi<>(V1Secret.class, V1SecretList.class, "",
							"v1", "secrets", this.hub), CONSUMER_LABEL + "=" + this.consumer + "," + PROFILE_LABEL),
					V1Secret.class, 0);
		}
		Running running = new Running(clusters, decisions, factory, profiles, secrets);
		profiles.addEventHandler(new Decide<>(running, (profile) -> profile.getMetadata().getName()));
		if (secrets != null) {
			secrets.addEventHandler(
					new Decide<>(running, (secret) -> secret.getMetadata().getLabels().get(PROFILE_LABEL)));
		}
		factory.startAllRegisteredInformers();
		this.running = running;
	}

	@Override
	public synchronized void stop() {
		Running running = this.running;
		if (running != null) {
			running.factory.stopAllRegisteredInformers(true);
			running.decisions.shutdownNow();
			this.running = null;
		}
		this.engaged.clear();
		this.retries.clear();
	}

	private void decide(Running running, String name) {
		Object source = (this.accessProviders != null) ? access(running, name, this.accessProviders)
				: kubeconfig(running, name);
		Object current = this.engaged.get(name);
		if (source == null) {
			this.retries.remove(name);
			if (current != null) {
				this.engaged.remove(name);
				running.clusters.disengage(name);
			}
			return;
		}
		if (source.equals(current)) {
			return;
		}
		try {
			ApiClient client = (source instanceof AccessProviders.Access access)
					? Objects.requireNonNull(this.accessProviders).connect(name, access) : KubeconfigClients
						.fromYaml((String) source, "the Secret of the ClusterProfile " + this.namespace + "/" + name);
			running.clusters.engage(name, client);
			this.engaged.put(name, source);
			this.retries.remove(name);
		}
		catch (RuntimeException ex) {
			if (source instanceof AccessProviders.Access) {
				Duration wait = this.retries.getOrDefault(name, FIRST_RETRY);
				this.retries.put(name,
						(wait.compareTo(LAST_RETRY.dividedBy(2)) < 0) ? wait.multipliedBy(2) : LAST_RETRY);
				logger.error("Cluster '{}' is not engaged, trying again in {} s: {}", name, wait.toSeconds(),
						ex.getMessage());
				running.decisions.schedule(() -> decide(running, name), wait.toMillis(), TimeUnit.MILLISECONDS);
			}
			else {
				logger.error("Cluster '{}' is not engaged: {}", name, ex.getMessage(), ex);
			}
		}
	}

	// how the profile's cluster should be reached now, or null
	private AccessProviders.@Nullable Access access(Running running, String name, AccessProviders accessProviders) {
		ClusterProfile profile = healthy(running, name);
		if (profile == null) {
			return null;
		}
		AccessProviders.Access access = accessProviders.select(profile);
		if (access == null) {
			logger.error("Cluster '{}' is not engaged: its ClusterProfile lists none of the access providers {} "
					+ "with a cluster; configure one it lists", name, accessProviders.names());
		}
		return access;
	}

	private @Nullable ClusterProfile healthy(Running running, String name) {
		ClusterProfile profile = running.profiles.getIndexer().getByKey(this.namespace + "/" + name);
		if (profile == null) {
			return null;
		}
		if (!profile.controlPlaneHealthy()) {
			logger.info("Cluster '{}' is not engaged: its ClusterProfile's {} condition is not True", name,
					ClusterProfile.CONTROL_PLANE_HEALTHY);
			return null;
		}
		return profile;
	}

	// the kubeconfig the profile should be engaged with now, or null
	private @Nullable String kubeconfig(Running running, String name) {
		if (healthy(running, name) == null || running.secrets == null) {
			return null;
		}
		List<V1Secret> secrets = running.secrets.getIndexer()
			.list()
			.stream()
			.filter((secret) -> name.equals(secret.getMetadata().getLabels().get(PROFILE_LABEL)))
			.toList();
		if (secrets.size() != 1) {
			logger.error(
					"Cluster '{}' is not engaged: {} Secrets in {} are labelled {}={} and {}={}; label exactly one",
					name, secrets.size(), this.namespace, CONSUMER_LABEL, this.consumer, PROFILE_LABEL, name);
			return null;
		}
		try {
			return KubeconfigClients.kubeconfig(secrets.get(0), KUBECONFIG_KEY);
		}
		catch (IllegalArgumentException ex) {
			logger.error("Cluster '{}' is not engaged: {}", name, ex.getMessage());
			return null;
		}
	}

	private record Running(ClusterAware clusters, ScheduledExecutorService decisions, SharedInformerFactory factory,
			SharedIndexInformer<ClusterProfile> profiles, @Nullable SharedIndexInformer<V1Secret> secrets) {
	}

	/**
	 * Decides anew for the profile an event names.
	 */
	private final class Decide<T extends KubernetesObject> implements ResourceEventHandler<T> {

		private final Running running;

		private final java.util.function.Function<T, @Nullable String> profile;

		Decide(Running running, java.util.function.Function<T, @Nullable String> profile) {
			this.running = running;
			this.profile = profile;
		}

		@Override
		public void onAdd(T object) {
			decide(object);
		}

		@Override
		public void onUpdate(T old, T object) {
			if (!Objects.equals(this.profile.apply(old), this.profile.apply(object))) {
				decide(old);
			}
			decide(object);
		}

		@Override
		public void onDelete(T object, boolean finalStateUnknown) {
			decide(object);
		}

		private void decide(T object) {
			String name = this.profile.apply(object);
			if (name != null && !name.isEmpty()) {
				this.running.decisions.execute(() -> ClusterProfileProvider.this.decide(this.running, name));
			}
		}

	}

	/**
	 * Lists and watches one kind of the namespace, optionally by a label selector.
	 */
	private final class NamespacedListerWatcher<T extends KubernetesObject, L extends KubernetesListObject>
			implements ListerWatcher<T, L> {

		private final GenericKubernetesApi<T, L> api;

		private final @Nullable String labelSelector;

		NamespacedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String labelSelector) {
			this.api = api;
			this.labelSelector = labelSelector;
		}

		@Override
		public L list(CallGeneratorParams params) throws ApiException {
			L list = this.api.list(ClusterProfileProvider.this.namespace, options(params))
				.throwsApiException()
				.getObject();
			if (list instanceof CustomResourceList<?> profiles) {
				// a list of a model without a list class comes back with untyped items
				Gson gson = ClusterProfileProvider.this.hub.getJSON().getGson();
				@SuppressWarnings("unchecked")
				List<Object> items = (List<Object>) (List<?>) profiles.getItems();
				items.replaceAll((item) -> (item instanceof ClusterProfile) ? item
						: gson.fromJson(gson.toJsonTree(item), ClusterProfile.class));
			}
			return list;
		}

		@Override
		public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
			return this.api.watch(ClusterProfileProvider.this.namespace, options(params));
		}

		private ListOptions options(CallGeneratorParams params) {
			ListOptions options = new ListOptions();
			options.setLabelSelector(this.labelSelector);
			options.setResourceVersion(params.resourceVersion);
			options.setTimeoutSeconds(params.timeoutSeconds);
			return options;
		}

	}

}
