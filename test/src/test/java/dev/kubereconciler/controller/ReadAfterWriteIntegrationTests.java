package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a reconcile reads after its own writes, against the real test API server: every
 * object a write returns is a private copy, so changing it changes nothing until it is
 * written, and an object that left the watch and was deleted is gone from the view.
 */
@KubernetesTest
class ReadAfterWriteIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String NAME = "status-after-update";

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	@Test
	void statusSetOnTheObjectAnUpdateReturnedIsWritten() throws ApiException {
		Gadget.install(this.client);
		GenericKubernetesApi<Gadget, GadgetList> gadgets = new GenericKubernetesApi<>(Gadget.class, GadgetList.class,
				Gadget.GROUP, Gadget.VERSION, Gadget.PLURAL, this.client);
		// the watch events are held back during the reconcile: its reads come from its
		// own writes, not from an informer that caught up
		HeldWatch<Gadget, GadgetList> watch = new HeldWatch<>(
				new ScopedListerWatcher<>(gadgets, this.namespace.name(), "mode=update-then-status"));
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		factory.sharedIndexInformerFor(watch, Gadget.class, 0);
		List<String> statusesRead = new CopyOnWriteArrayList<>();
		this.managers.start(ControllerManager.builder(this.client)
			.informerFactory(factory)
			.controller(ControllerDefinition.builder(Gadget.class)
				.named("update-then-status")
				.namespaces(this.namespace.name())
				.labelSelector("mode=update-then-status")
				.reconcile((gadget, context) -> {
					if (gadget.getMetadata().getLabels().containsKey("seen")) {
						return Result.done();
					}
					watch.hold();
					try {
						Map<String, String> labels = new HashMap<>(gadget.getMetadata().getLabels());
						labels.put("seen", "yes");
						gadget.getMetadata().setLabels(labels);
						Gadget updated = context.update(gadget);
						updated.setStatus(new Gadget.Status().color("seen-" + updated.getSpec().getColor()));
						// a change to what a write returned is not in the view until it
						// is written
						statusesRead.add(statusColor(context.get(Gadget.class, this.namespace.name(), NAME)));
						context.updateStatus(updated);
						statusesRead.add(statusColor(context.get(Gadget.class, this.namespace.name(), NAME)));
					}
					finally {
						watch.release();
					}
					return Result.done();
				})));
		Gadget gadget = Gadget.named(this.namespace.name(), NAME, "teal");
		gadget.getMetadata().setLabels(Map.of("mode", "update-then-status"));
		gadgets.create(gadget).throwsApiException();
		await().atMost(TIMEOUT).until(() -> statusesRead.size() == 2);
		Gadget stored = gadgets.get(this.namespace.name(), NAME).throwsApiException().getObject();
		assertThat(stored.getStatus()).as("status on the server").isNotNull();
		assertThat(stored.getStatus().color).isEqualTo("seen-teal");
		assertThat(stored.getMetadata().getLabels()).containsEntry("seen", "yes");
		assertThat(statusesRead).containsExactly("none", "seen-teal");
		assertThat(this.managers.errors()).isEmpty();
	}

	private static String statusColor(Optional<Gadget> gadget) {
		return gadget.map(Gadget::getStatus).map((status) -> status.color).orElse("none");
	}

	@Test
	void objectsReleasedFromTheWatchAndThenDeletedAreGoneFromTheView() throws ApiException {
		int count = 40;
		Set<String> released = ConcurrentHashMap.newKeySet();
		List<List<String>> listedByProbe = new CopyOnWriteArrayList<>();
		List<Boolean> probeFoundReleased = new CopyOnWriteArrayList<>();
		this.managers.start(ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("releaser")
				.namespaces(this.namespace.name())
				.labelSelector("release-test=held")
				.maxConcurrentReconciles(4)
				.reconcile((configMap, context) -> {
					String name = configMap.getMetadata().getName();
					if (name.equals("probe")) {
						listedByProbe.add(context.list(V1ConfigMap.class, this.namespace.name(), "")
							.stream()
							.map((listed) -> listed.getMetadata().getName())
							.toList());
						Optional<V1ConfigMap> first = context.get(V1ConfigMap.class, this.namespace.name(),
								"released-0");
						probeFoundReleased.add(first.isPresent());
						return Result.done();
					}
					// removing the label the watch selects on takes the object out of the
					// watch: the informer sees it deleted, often before the update's
					// answer is back
					Map<String, String> labels = new HashMap<>(configMap.getMetadata().getLabels());
					labels.put("release-test", "released");
					configMap.getMetadata().setLabels(labels);
					context.update(configMap);
					released.add(name);
					return Result.done();
				})));
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < count; i++) {
			core.createNamespacedConfigMap(this.namespace.name(), configMap("released-" + i)).execute();
		}
		await().atMost(TIMEOUT).until(() -> released.size() == count);
		for (int i = 0; i < count; i++) {
			core.deleteNamespacedConfigMap("released-" + i, this.namespace.name()).execute();
		}
		await().atMost(TIMEOUT)
			.until(() -> core.listNamespacedConfigMap(this.namespace.name())
				.labelSelector("release-test")
				.execute()
				.getItems()
				.isEmpty());
		core.createNamespacedConfigMap(this.namespace.name(), configMap("probe")).execute();
		await().atMost(TIMEOUT).until(() -> !listedByProbe.isEmpty());
		assertThat(listedByProbe.get(0)).containsExactly("probe");
		assertThat(probeFoundReleased).containsExactly(false);
		assertThat(this.managers.errors()).isEmpty();
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("release-test", "held")))
			.data(Map.of("key", "value"));
	}

}
