package dev.kubereconciler.controller;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.internal.cache.ScopedListerWatcher;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a reconciler with a context gets against the real test API server: a private copy
 * of the object, no call once it is gone, server-side apply with the controller as field
 * manager, owned objects through the owner index, and its own writes even before the
 * watch delivers them.
 */
@KubernetesTest
class ReconcileContextIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	@Test
	void objectIsAPrivateCopyAndIsNotPassedOnceGone() throws ApiException {
		AtomicInteger objectCalls = new AtomicInteger();
		List<Boolean> requestSawObject = new CopyOnWriteArrayList<>();
		ControllerManager manager = start(null,
				ControllerDefinition.builder(V1ConfigMap.class)
					.named("copies")
					.namespaces(this.namespace.name())
					.labelSelector("context-test=copies")
					.reconcile((configMap, context) -> {
						objectCalls.incrementAndGet();
						// scribbling on the copy must not reach the informer's cache
						configMap.getData().put("scribbled", "yes");
						configMap.getMetadata().getLabels().clear();
						return Result.done();
					}),
				ControllerDefinition.builder(V1ConfigMap.class)
					.named("requests")
					.namespaces(this.namespace.name())
					.labelSelector("context-test=copies")
					.reconcileRequests((request, context) -> {
						requestSawObject
							.add(context.get(V1ConfigMap.class, request.namespace(), request.name()).isPresent());
						return Result.done();
					}));
		core().createNamespacedConfigMap(this.namespace.name(), configMap("copied", "copies")).execute();
		await().atMost(TIMEOUT).until(() -> objectCalls.get() == 1 && requestSawObject.size() == 1);
		V1ConfigMap cached = manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).get("copied");
		assertThat(cached.getData()).doesNotContainKey("scribbled");
		assertThat(cached.getMetadata().getLabels()).containsEntry("context-test", "copies");
		core().deleteNamespacedConfigMap("copied", this.namespace.name()).execute();
		// the request form runs for the deletion and finds nothing; the object form is
		// not called
		await().atMost(TIMEOUT).until(() -> requestSawObject.size() == 2);
		assertThat(requestSawObject).containsExactly(true, false);
		await().during(Duration.ofMillis(500)).atMost(TIMEOUT).until(() -> objectCalls.get() == 1);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void applyOwnsFieldsAsTheControllerAndAnUnchangedApplyWritesNothing() throws Exception {
		List<String> versions = new CopyOnWriteArrayList<>();
		List<Integer> ownedSeen = new CopyOnWriteArrayList<>();
		start(null,
				ControllerDefinition.builder(V1Secret.class)
					.named("applier")
					.namespaces(this.namespace.name())
					.owns(V1ConfigMap.class)
					.reconcile((secret, context) -> {
						V1ConfigMap desired = new V1ConfigMap()
							.metadata(new V1ObjectMeta().name(secret.getMetadata().getName() + "-settings")
								.namespace(secret.getMetadata().getNamespace()))
							.data(Map.of("owner", secret.getMetadata().getName()));
						context.setControllerReference(secret, desired);
						V1ConfigMap applied = context.apply(desired);
						versions.add(applied.getMetadata().getResourceVersion());
						ownedSeen.add(context.owned(V1ConfigMap.class, secret).size());
						return (versions.size() < 2) ? Result.requeueAfter(Duration.ofMillis(50)) : Result.done();
					}));
		core()
			.createNamespacedSecret(this.namespace.name(),
					new V1Secret().metadata(new V1ObjectMeta().name("source")).stringData(Map.of("a", "b")))
			.execute();
		await().atMost(TIMEOUT).until(() -> versions.size() >= 2);
		// the second apply changed nothing, so the server kept the resourceVersion
		assertThat(versions.get(1)).isEqualTo(versions.get(0));
		V1ConfigMap stored = core().readNamespacedConfigMap("source-settings", this.namespace.name()).execute();
		// client-java's model drops managedFields: read them from the server's own JSON
		JsonArray managers = rawJson("/api/v1/namespaces/" + this.namespace.name() + "/configmaps/source-settings")
			.getAsJsonObject("metadata")
			.getAsJsonArray("managedFields");
		assertThat(managers).singleElement().satisfies((element) -> {
			JsonObject entry = element.getAsJsonObject();
			assertThat(entry.get("manager").getAsString()).isEqualTo("applier");
			assertThat(entry.get("operation").getAsString()).isEqualTo("Apply");
			// only the fields the controller set, not the empty maps client-java
			// models carry
			assertThat(entry.getAsJsonObject("fieldsV1").keySet()).containsExactlyInAnyOrder("f:data", "f:metadata");
			assertThat(entry.getAsJsonObject("fieldsV1").getAsJsonObject("f:metadata").keySet())
				.containsExactly("f:ownerReferences");
		});
		assertThat(stored.getMetadata().getOwnerReferences()).singleElement().satisfies((reference) -> {
			assertThat(reference.getKind()).isEqualTo("Secret");
			assertThat(reference.getName()).isEqualTo("source");
			assertThat(reference.getController()).isTrue();
		});
		// the owner index finds the applied ConfigMap, even before the informer saw it
		assertThat(ownedSeen).allMatch((count) -> count == 1);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void nextReconcileReadsItsOwnWriteWhileTheWatchEventIsHeldBack() throws ApiException {
		GenericKubernetesApi<V1ConfigMap, V1ConfigMapList> api = new GenericKubernetesApi<>(V1ConfigMap.class,
				V1ConfigMapList.class, "", "v1", "configmaps", this.client);
		HeldWatch<V1ConfigMap, V1ConfigMapList> watch = new HeldWatch<>(
				new ScopedListerWatcher<>(api, this.namespace.name(), "context-test=write"));
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		factory.sharedIndexInformerFor(watch, V1ConfigMap.class, 0);
		List<String> stepsSeen = new CopyOnWriteArrayList<>();
		List<String> stepsCached = new CopyOnWriteArrayList<>();
		List<Trigger> triggers = new CopyOnWriteArrayList<>();
		List<Integer> failures = new CopyOnWriteArrayList<>();
		ControllerManager manager = start(factory,
				ControllerDefinition.builder(V1ConfigMap.class)
					.named("writer")
					.namespaces(this.namespace.name())
					.labelSelector("context-test=write")
					.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1)))
					.reconcile((configMap, context) -> {
						triggers.add(context.trigger());
						failures.add(context.failures());
						stepsSeen.add(configMap.getData().getOrDefault("step", "none"));
						stepsCached.add(this.managers.get(0)
							.lister(V1ConfigMap.class)
							.namespace(this.namespace.name())
							.get("written")
							.getData()
							.getOrDefault("step", "none"));
						if (stepsSeen.size() == 1) {
							watch.hold();
							context.patch(configMap, "{\"data\":{\"step\":\"1\"}}");
							// straight back, through the limiter: long before the
							// held event
							return Result.requeue();
						}
						return Result.done();
					}));
		try {
			core().createNamespacedConfigMap(this.namespace.name(), configMap("written", "write")).execute();
			await().atMost(TIMEOUT).until(() -> stepsSeen.size() >= 2);
			// the informer still holds the old version, yet the reconcile read its
			// own write
			assertThat(stepsCached).startsWith("none", "none");
			assertThat(stepsSeen).startsWith("none", "1");
			assertThat(triggers).startsWith(Trigger.EVENT, Trigger.RETRY);
			assertThat(failures).startsWith(0, 1);
		}
		finally {
			watch.release();
		}
		await().atMost(TIMEOUT)
			.until(() -> "1".equals(manager.lister(V1ConfigMap.class)
				.namespace(this.namespace.name())
				.get("written")
				.getData()
				.get("step")));
		assertThat(this.managers.errors()).isEmpty();
	}

	private ControllerManager start(SharedInformerFactory factory, ControllerDefinition... definitions) {
		ManagerBuilder builder = ControllerManager.builder(this.client);
		if (factory != null) {
			builder.informerFactory(factory);
		}
		for (ControllerDefinition definition : definitions) {
			builder.controller(definition);
		}
		return this.managers.start(builder);
	}

	private CoreV1Api core() {
		return new CoreV1Api(this.client);
	}

	private JsonObject rawJson(String path) throws IOException {
		Request request = new Request.Builder().url(this.client.getBasePath() + path).build();
		try (Response response = this.client.getHttpClient().newCall(request).execute()) {
			return JsonParser.parseString(response.body().string()).getAsJsonObject();
		}
	}

	private static V1ConfigMap configMap(String name, String test) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("context-test", test)))
			.data(Map.of("key", "value"));
	}

}
