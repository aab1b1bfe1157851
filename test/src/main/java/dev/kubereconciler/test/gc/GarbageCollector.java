package dev.kubereconciler.test.gc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A garbage collector for an API server that has no controller manager, such as the test
 * server, doing what kube-controller-manager's does: an object whose owner references all
 * name uids that no longer exist is deleted (background propagation); an owner deleted
 * with {@code propagationPolicy: Foreground} loses its {@code foregroundDeletion}
 * finalizer once the dependents that block it ({@code blockOwnerDeletion}) are gone, and
 * the collector deletes its dependents; one deleted with {@code Orphan} loses its
 * {@code orphan} finalizer once its dependents no longer name it.
 *
 * <p>
 * It watches the metadata of every resource that discovery lists as listable, watchable
 * and deletable (events excepted), and discovers again when a CustomResourceDefinition
 * changes. It needs a client that may list, watch, get, patch and delete all of them: an
 * admin's. {@code @KubernetesTest} starts one on the shared server;
 * {@link #start(ApiClient)} starts one of your own, which you {@link #close()}.
 */
public final class GarbageCollector implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(GarbageCollector.class);

	private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);

	private static final Duration ERROR_RETRY = Duration.ofSeconds(1);

	private static final Duration MAX_DISCOVERY_RETRY = Duration.ofMinutes(1);

	private final MetadataClient client;

	private final ObjectGraph graph = new ObjectGraph();

	private final WorkQueue queue;

	private final Set<String> ignoredNamespaces = ConcurrentHashMap.newKeySet();

	private final Set<String> waitingForKinds = ConcurrentHashMap.newKeySet();

	private final Map<ResourceType, ResourceWatch> watches = new ConcurrentHashMap<>();

	private final AtomicBoolean discoveryPending = new AtomicBoolean();

	private final ScheduledExecutorService scheduler;

	private final Collector collector;

	private final Thread worker;

	private volatile ResourceDiscovery discovery = new ResourceDiscovery(List.of(), Map.of());

	private volatile Duration discoveryRetry = Duration.ofSeconds(1);

	private volatile boolean closed;

	private GarbageCollector(ApiClient client) {
		this.client = new MetadataClient(client);
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
				(task) -> daemon(task, "garbage-collector-scheduler"));
		scheduler.setRemoveOnCancelPolicy(true);
		this.scheduler = scheduler;
		this.queue = new WorkQueue(scheduler);
		this.collector = new Collector(this.client, this.graph, () -> this.discovery, this.ignoredNamespaces::contains,
				this.queue);
		this.worker = daemon(this::work, "garbage-collector");
	}

	/**
	 * Start a collector on the API server of the given client: it discovers the resources
	 * and lists them all before it returns, then follows their watches.
	 * @param client a client allowed to list, watch, get, patch and delete every
	 * resource, with no read timeout (a watch can be silent for minutes)
	 * @return the running collector
	 * @throws IllegalStateException if discovery or a first list fails
	 */
	public static GarbageCollector start(ApiClient client) {
		GarbageCollector collector = new GarbageCollector(client);
		try {
			collector.discover();
		}
		catch (ApiException ex) {
			collector.close();
			throw new IllegalStateException("The garbage collector could not list the API server's resources: "
					+ ex.getCode() + " " + ex.getMessage(), ex);
		}
		collector.worker.start();
		return collector;
	}

	/**
	 * Leave the objects of the given namespace alone from now on: they are neither
	 * deleted nor changed, as if no controller manager ran for them.
	 * @param namespace the namespace
	 */
	public void ignoreNamespace(String namespace) {
		this.ignoredNamespaces.add(namespace);
	}

	/** Stop the watches and the collector's threads. */
	@Override
	public void close() {
		this.closed = true;
		this.watches.values().forEach(ResourceWatch::stop);
		this.scheduler.shutdownNow();
		this.worker.interrupt();
	}

	private void work() {
		while (!this.closed) {
			String uid;
			try {
				uid = this.queue.take();
			}
			catch (InterruptedException ex) {
				return;
			}
			try {
				Collector.Outcome outcome = this.collector.process(uid);
				if (outcome == Collector.Outcome.RETRY) {
					retryLater(uid, CONFLICT_RETRY);
				}
				else if (outcome == Collector.Outcome.UNKNOWN_KIND) {
					this.waitingForKinds.add(uid);
					scheduleDiscovery(this.discoveryRetry);
				}
			}
			catch (ApiException | RuntimeException ex) {
				if (!this.closed) {
					logger.debug("Garbage collection of {} failed, retrying in {}", uid, ERROR_RETRY, ex);
					retryLater(uid, ERROR_RETRY);
				}
			}
		}
	}

	private void retryLater(String uid, Duration delay) {
		if (!this.closed) {
			this.queue.addAfter(uid, delay);
		}
	}

	// A CRD that is created, established or deleted changes what is served; one pending
	// discovery covers any number of such events.
	private void scheduleDiscovery(Duration delay) {
		if (!this.closed && this.discoveryPending.compareAndSet(false, true)) {
			this.scheduler.schedule(() -> {
				this.discoveryPending.set(false);
				try {
					discover();
				}
				catch (ApiException | RuntimeException ex) {
					logger.debug("Discovery failed, retrying in {}", ERROR_RETRY, ex);
					scheduleDiscovery(ERROR_RETRY);
				}
			}, delay.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	private synchronized void discover() throws ApiException {
		if (this.closed) {
			return;
		}
		ResourceDiscovery discovered = ResourceDiscovery.discover(this.client);
		boolean changed = !discovered.byKind().keySet().equals(this.discovery.byKind().keySet());
		this.discovery = discovered;
		Set<ResourceType> current = new HashSet<>(discovered.watched());
		for (ResourceType type : List.copyOf(this.watches.keySet())) {
			if (!current.contains(type)) {
				// no longer served: its objects are gone with it
				ResourceWatch gone = this.watches.remove(type);
				if (gone != null) {
					gone.stop();
				}
				this.graph.uidsOf(type).forEach(this::removed);
			}
		}
		for (ResourceType type : discovered.watched()) {
			if (!this.watches.containsKey(type)) {
				ResourceWatch watch = new ResourceWatch(type);
				watch.start(relist(type));
				this.watches.put(type, watch);
			}
		}
		// the uids that waited for a kind try again; if it is still unknown they come
		// back, and discovery backs off
		this.discoveryRetry = changed ? Duration.ofSeconds(1)
				: min(this.discoveryRetry.multipliedBy(2), MAX_DISCOVERY_RETRY);
		List<String> waiting = new ArrayList<>(this.waitingForKinds);
		this.waitingForKinds.removeAll(waiting);
		waiting.forEach(this.queue::add);
	}

	private String relist(ResourceType type) throws ApiException {
		List<V1ObjectMeta> items = new ArrayList<>();
		String resourceVersion = this.client.list(type, items);
		Set<String> listed = new HashSet<>();
		for (V1ObjectMeta item : items) {
			listed.add(item.getUid());
			observed(new ObjectNode(type, item));
		}
		for (String uid : this.graph.uidsOf(type)) {
			if (!listed.contains(uid)) {
				removed(uid);
			}
		}
		return resourceVersion;
	}

	private void observed(ObjectNode node) {
		this.collector.observed(this.graph.put(node), node);
		if (node.type().plural().equals("customresourcedefinitions")) {
			scheduleDiscovery(Duration.ZERO);
		}
	}

	private void removed(String uid) {
		ObjectNode node = this.graph.remove(uid);
		if (node != null) {
			this.collector.deleted(node);
			if (node.type().plural().equals("customresourcedefinitions")) {
				scheduleDiscovery(Duration.ZERO);
			}
		}
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private static Thread daemon(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	/** The watch of one resource, on a thread of its own, relisting when it expires. */
	private final class ResourceWatch {

		private final ResourceType type;

		private volatile boolean stopped;

		private volatile okhttp3.@Nullable Call call;

		ResourceWatch(ResourceType type) {
			this.type = type;
		}

		void start(String resourceVersion) {
			daemon(() -> run(resourceVersion), "garbage-collector-watch-" + this.type).start();
		}

		void stop() {
			this.stopped = true;
			okhttp3.Call current = this.call;
			if (current != null) {
				current.cancel();
			}
			synchronized (this) {
				notifyAll();
			}
		}

		private void run(String initialResourceVersion) {
			@Nullable String resourceVersion = initialResourceVersion;
			while (!this.stopped && !GarbageCollector.this.closed) {
				try {
					if (resourceVersion == null) {
						resourceVersion = relist(this.type);
					}
					resourceVersion = follow(resourceVersion);
				}
				catch (Exception ex) {
					resourceVersion = null;
					if (!this.stopped && !GarbageCollector.this.closed) {
						logger.debug("Watch of {} failed, listing again in {}", this.type, ERROR_RETRY, ex);
						pause();
					}
				}
			}
		}

		// the resourceVersion to go on from, or null when it has expired
		private @Nullable String follow(String resourceVersion) throws Exception {
			String[] last = { resourceVersion };
			boolean[] expired = { false };
			okhttp3.Call watch = GarbageCollector.this.client.watch(this.type, resourceVersion);
			this.call = watch;
			if (this.stopped) {
				return resourceVersion;
			}
			GarbageCollector.this.client.read(watch, (event) -> {
				V1ObjectMeta object = event.object();
				if (object == null) {
					expired[0] = event.code() == 410;
					return;
				}
				last[0] = object.getResourceVersion();
				switch (event.type()) {
					case "ADDED", "MODIFIED" -> observed(new ObjectNode(this.type, object));
					case "DELETED" -> removed(object.getUid());
					default -> {
					}
				}
			});
			return expired[0] ? null : last[0];
		}

		private synchronized void pause() {
			try {
				wait(ERROR_RETRY.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.stopped = true;
			}
		}

	}

}
