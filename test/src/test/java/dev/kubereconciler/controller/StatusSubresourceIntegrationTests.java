package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * A controller that writes the status of a custom resource whose CRD serves no
 * {@code /status} subresource: the manager refuses to start, naming the CRD and the field
 * to add, and a status write that meets a CRD changed under a running manager ends
 * terminally with that explanation instead of a bare 404 retried for ever.
 */
@KubernetesTest
class StatusSubresourceIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private GenericKubernetesApi<Sprocket, SprocketList> sprockets;

	private ControllerManager manager;

	private final List<ReconcileOutcome> outcomes = new CopyOnWriteArrayList<>();

	private final List<Throwable> errors = new CopyOnWriteArrayList<>();

	@BeforeEach
	void setUp() {
		this.sprockets = new GenericKubernetesApi<>(Sprocket.class, SprocketList.class, Sprocket.GROUP,
				Sprocket.VERSION, Sprocket.PLURAL, this.client);
	}

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void startFailsNamingTheCrdAndTheFieldWhenAStatusWriterWatchesACrdWithoutStatus() throws ApiException {
		Sprocket.install(this.client, false);
		this.manager = manager(ControllerDefinition.builder(Sprocket.class)
			.named("sprocket-status")
			.namespaces(this.namespace.name())
			.reconcile((sprocket, context) -> {
				sprocket.setStatus(new Sprocket.Status(sprocket.getSpec().getColor()));
				context.updateStatus(sprocket);
				return Result.done();
			}));
		assertThatIllegalStateException().isThrownBy(this.manager::start)
			.withMessageContaining("'sprocket-status'")
			.withMessageContaining("/status")
			.withMessageContaining("CustomResourceDefinition " + Sprocket.CRD_NAME)
			.withMessageContaining("spec.versions[].subresources.status: {}");
		assertThat(this.manager.isRunning()).isFalse();
	}

	@Test
	void startFailsNamingTheCrdToApplyWhenAWatchedCustomResourceIsNotServed() {
		this.manager = manager(ControllerDefinition.builder(Thingamajig.class)
			.named("unserved")
			.namespaces(this.namespace.name())
			.reconcile((Request request) -> Result.done()));
		assertThatIllegalStateException().isThrownBy(this.manager::start)
			.withMessageContaining("Controller 'unserved' watches " + Thingamajig.GROUP + "/v1/Thingamajig")
			.withMessageContaining("which the API server does not serve")
			.withMessageContaining("CustomResourceDefinition thingamajigs." + Thingamajig.GROUP)
			.withMessageContaining("target/kubernetes/crds/thingamajigs." + Thingamajig.GROUP + ".yaml")
			.withMessageContaining("kube-reconciler.crds.apply=true");
		assertThat(this.manager.isRunning()).isFalse();
	}

	@Test
	void startFailsWhenAnOwnedCustomResourceIsNotServed() throws ApiException {
		Sprocket.install(this.client, true);
		this.manager = manager(ControllerDefinition.builder(Sprocket.class)
			.named("owns-unserved")
			.namespaces(this.namespace.name())
			.owns(Thingamajig.class)
			.reconcile((Request request) -> Result.done()));
		assertThatIllegalStateException().isThrownBy(this.manager::start)
			.withMessageContaining("Controller 'owns-unserved' watches " + Thingamajig.GROUP + "/v1/Thingamajig");
	}

	@Test
	void aControllerWithoutAContextCannotWriteStatusAndStartsOnACrdWithoutStatus() throws ApiException {
		Sprocket.install(this.client, false);
		AtomicInteger reconciles = new AtomicInteger();
		this.manager = manager(ControllerDefinition.builder(Sprocket.class)
			.named("sprocket-plain")
			.namespaces(this.namespace.name())
			.reconcile((Request request) -> {
				reconciles.incrementAndGet();
				return Result.done();
			}));
		this.manager.start();
		this.sprockets.create(Sprocket.named(this.namespace.name(), "plain", "red")).throwsApiException();
		await().atMost(TIMEOUT).until(() -> reconciles.get() >= 1);
	}

	@Test
	void statusWriteAfterTheSubresourceWasRemovedIsTerminalAndNamesTheFix() throws ApiException {
		Sprocket.install(this.client, true);
		AtomicInteger reconciles = new AtomicInteger();
		this.manager = manager(ControllerDefinition.builder(Sprocket.class)
			.named("sprocket-changed")
			.namespaces(this.namespace.name())
			.reconcile((sprocket, context) -> {
				reconciles.incrementAndGet();
				sprocket.setStatus(new Sprocket.Status(sprocket.getSpec().getColor()));
				context.updateStatus(sprocket);
				return Result.done();
			}));
		this.manager.start();
		this.sprockets.create(Sprocket.named(this.namespace.name(), "a-1", "red")).throwsApiException();
		await().atMost(TIMEOUT).until(() -> "red".equals(statusColor("a-1")));
		assertThat(this.errors).isEmpty();
		// the CRD loses its status subresource under the running manager
		Sprocket.install(this.client, false);
		// discovery and the CRD handler follow the CRD each on its own
		await().atMost(TIMEOUT).until(() -> statusWriteStatusCode("a-1") == 404);
		Sprocket current = this.sprockets.get(this.namespace.name(), "a-1").throwsApiException().getObject();
		current.getSpec().color = "blue";
		this.sprockets.update(current).throwsApiException();
		await().atMost(TIMEOUT).until(() -> !this.errors.isEmpty());
		assertThat(this.errors.get(0)).hasMessageContaining("a-1")
			.hasMessageContaining("exists")
			.hasMessageContaining("/status")
			.hasMessageContaining("CustomResourceDefinition " + Sprocket.CRD_NAME)
			.hasMessageContaining("spec.versions[].subresources.status: {}");
		assertThat(this.outcomes).last().isEqualTo(ReconcileOutcome.TERMINAL_ERROR);
		// not retried: the key waits for its next change or resync
		int seen = reconciles.get();
		await().during(Duration.ofSeconds(2)).atMost(TIMEOUT).until(() -> reconciles.get() == seen);
		assertThat(this.errors).hasSize(1);
	}

	private int statusWriteStatusCode(String name) {
		Sprocket sprocket = this.sprockets.get(this.namespace.name(), name).getObject();
		try {
			new CustomObjectsApi(this.client)
				.replaceNamespacedCustomObjectStatus(Sprocket.GROUP, Sprocket.VERSION, this.namespace.name(),
						Sprocket.PLURAL, name, sprocket)
				.execute();
			return 200;
		}
		catch (ApiException ex) {
			return ex.getCode();
		}
	}

	private String statusColor(String name) {
		Sprocket sprocket = this.sprockets.get(this.namespace.name(), name).getObject();
		return (sprocket != null && sprocket.getStatus() != null) ? sprocket.getStatus().getColor() : null;
	}

	private ControllerManager manager(ControllerDefinition definition) {
		return ControllerManager.builder(this.client).controller(definition).listener(new ControllerListener() {

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				StatusSubresourceIntegrationTests.this.outcomes.add(outcome);
				if (error != null) {
					StatusSubresourceIntegrationTests.this.errors.add(error);
				}
			}

		}).build();
	}

}
