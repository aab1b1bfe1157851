package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.Sleeper;

/**
 * Changes the namespaces of a running controller, as JOSDK's {@code changeNamespaces}
 * does: each type the controller uses gets an informer for an added namespace and loses
 * the one of a namespace no controller needs any more.
 *
 * <p>
 * A removed namespace leaves the controller's {@link NamespaceScope} at once: its events
 * are no longer enqueued, its keys still queued are dropped untouched when a worker takes
 * them, and a reconcile of it that runs finishes. An added namespace joins the scope only
 * once every informer it needs has synced, and then the keys of its cached primaries are
 * enqueued once, at low priority as an initial list's: the events of its initial lists
 * are not enqueued one by one, so that an object is not reconciled once for its primary's
 * list and again for an owned object's. A namespace the API server refuses to list waits,
 * its informer retrying, while the others run.
 */
final class NamespaceChanges {

	private static final Logger logger = LoggerFactory.getLogger(NamespaceChanges.class);

	// a check is a few field reads, as the start's wait for the caches; a namespace the
	// server refuses may wait long, checked less often
	private static final long SYNC_POLL_NANOS = 5_000_000L;

	private static final long SYNC_POLL_MAX_NANOS = 1_000_000_000L;

	private static final Pattern NAMESPACE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private final InformerWiring wiring;

	private final Sleeper clock;

	NamespaceChanges(InformerWiring wiring, Sleeper clock) {
		this.wiring = wiring;
		this.clock = clock;
	}

	synchronized CompletableFuture<Void> change(String name, Set<String> namespaces) {
		WatchingController controller = this.wiring.controllers().get(name);
		if (controller == null) {
			throw new IllegalArgumentException(
					"No controller named '" + name + "'; the controllers are " + this.wiring.controllers().keySet());
		}
		Set<String> next = checked(controller, namespaces);
		Set<String> before = controller.scope().requested();
		controller.scope().request(next);
		Set<String> removed = new TreeSet<>(controller.scope().get());
		removed.removeAll(next);
		Set<String> active = new LinkedHashSet<>(controller.scope().get());
		active.retainAll(next);
		if (next.isEmpty() || before.isEmpty()) {
			// a controller of every namespace has one informer that lists them all: the
			// cache holds every namespace already
			active = new LinkedHashSet<>(next);
		}
		controller.scope().set(active);
		List<NamespacedInformers<?>> informers = resize(controller);
		Set<String> added = new TreeSet<>(next);
		added.removeAll(active);
		logger.info("Controller '{}' changes its namespaces from {} to {}: removed {}, adding {}", name, before, next,
				removed, added);
		if (added.isEmpty()) {
			return CompletableFuture.completedFuture(null);
		}
		CompletableFuture<Void> joined = new CompletableFuture<>();
		Thread waiter = new Thread(() -> join(controller, added, informers, joined),
				"namespaces-" + name + "-" + String.join(",", added));
		waiter.setDaemon(true);
		waiter.start();
		return joined;
	}

	private Set<String> checked(WatchingController controller, Set<String> namespaces) {
		Set<String> next = new TreeSet<>();
		for (String namespace : namespaces) {
			if (namespace == null || namespace.isBlank()) {
				throw new IllegalArgumentException("Controller '" + controller.name()
						+ "': a namespace must not be blank; give the names of the namespaces, or none for all");
			}
			if (!NAMESPACE_NAME.matcher(namespace).matches()) {
				throw new IllegalArgumentException("Controller '" + controller.name() + "': '" + namespace
						+ "' is not a namespace name; use an RFC 1123 label such as 'team-a' (lower-case letters, "
						+ "digits and '-', at most 63 characters)");
			}
			next.add(namespace);
		}
		for (Class<?> type : typesOf(controller)) {
			if (this.wiring.isFactoryScoped(type)) {
				throw new IllegalArgumentException("Controller '" + controller.name()
						+ "' cannot change its namespaces while it runs: its informer of "
						+ ResourceType.of(type).displayName()
						+ " is the application's SharedInformerFactory's, which holds one informer per type, "
						+ "scoped to one namespace; leave the informer factory to the manager "
						+ "(ControllerManager.informerFactory, the auto-configuration's default bean) to change "
						+ "namespaces at run time");
			}
		}
		if (next.isEmpty()) {
			for (Class<?> type : typesOf(controller)) {
				if (this.wiring.informers().get(type) instanceof NamespacedInformers) {
					throw new IllegalArgumentException("Controller '" + controller.name()
							+ "' cannot change to every namespace while it runs: the informers of "
							+ ResourceType.of(controller.definition().watches()).displayName()
							+ " and the types it uses list named namespaces one by one; name the namespaces, or "
							+ "restart it with no namespaces (kube-reconciler.controllers." + controller.name()
							+ ".namespaces)");
				}
			}
		}
		return next;
	}

	// gives each per-namespace informer of the controller's types the namespaces their
	// controllers ask for now; returns those the controller uses
	private List<NamespacedInformers<?>> resize(WatchingController controller) {
		List<NamespacedInformers<?>> used = new ArrayList<>();
		for (Class<?> type : typesOf(controller)) {
			if (this.wiring.informers().get(type) instanceof NamespacedInformers<?> informers) {
				Set<String> wanted = new TreeSet<>();
				this.wiring.users(type).forEach((user) -> wanted.addAll(user.scope().requested()));
				for (String namespace : informers.namespaces()) {
					if (!wanted.contains(namespace)) {
						informers.removeNamespace(namespace);
					}
				}
				wanted.forEach(informers::addNamespace);
				used.add(informers);
			}
		}
		return used;
	}

	private List<Class<?>> typesOf(WatchingController controller) {
		List<Class<?>> types = new ArrayList<>();
		for (Map.Entry<Class<?>, SharedIndexInformer<? extends KubernetesObject>> entry : this.wiring.informers()
			.entrySet()) {
			if (this.wiring.users(entry.getKey()).contains(controller)) {
				types.add(entry.getKey());
			}
		}
		return types;
	}

	private void join(WatchingController controller, Set<String> added, List<NamespacedInformers<?>> informers,
			CompletableFuture<Void> joined) {
		Set<String> waiting = new TreeSet<>(added);
		long poll = SYNC_POLL_NANOS;
		try {
			while (!waiting.isEmpty()) {
				if (informers.stream().anyMatch(NamespacedInformers::isStopped)) {
					joined.cancel(false);
					return;
				}
				for (String namespace : List.copyOf(waiting)) {
					if (!controller.scope().requested().contains(namespace)) {
						// removed again before it synced
						waiting.remove(namespace);
					}
					else if (informers.stream().allMatch((informer) -> informer.hasSynced(namespace))) {
						activate(controller, namespace);
						waiting.remove(namespace);
					}
				}
				if (!waiting.isEmpty()) {
					this.clock.sleep(poll);
					poll = Math.min(poll * 2, SYNC_POLL_MAX_NANOS);
				}
			}
			joined.complete(null);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			joined.completeExceptionally(ex);
		}
	}

	private synchronized void activate(WatchingController controller, String namespace) {
		if (!controller.scope().requested().contains(namespace)) {
			return;
		}
		Set<String> active = new TreeSet<>(controller.scope().get());
		active.add(namespace);
		controller.scope().set(active);
		// read after the scope took the namespace: an event the handlers dropped before
		// is in the cache by now, one after it is enqueued by them
		SharedIndexInformer<? extends KubernetesObject> primary = this.wiring.informers()
			.get(controller.definition().watches());
		int enqueued = 0;
		if (primary != null) {
			for (Request key : InformerWiring.cachedKeys(primary, controller)) {
				if (key.namespace().equals(namespace)) {
					controller.keys().add(key, Priorities.LOW);
					enqueued++;
				}
			}
		}
		logger.info("Controller '{}' now reconciles namespace '{}': its caches synced, {} key(s) enqueued",
				controller.name(), namespace, enqueued);
	}

}
