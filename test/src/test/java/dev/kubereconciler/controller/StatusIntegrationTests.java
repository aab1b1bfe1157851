package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.manager.ControllerManager;

/**
 * Status writes of an {@link ObjectReconciler} on a custom resource against the real test
 * API server: on a fresh object with no status, through PUT and through apply, and
 * without a hot loop when the status did not change.
 */
@KubernetesTest
class StatusIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	private GenericKubernetesApi<Gadget, GadgetList> gadgets;

	@BeforeEach
	void setUp() throws ApiException {
		Gadget.install(this.client);
		this.gadgets = new GenericKubernetesApi<>(Gadget.class, GadgetList.class, Gadget.GROUP, Gadget.VERSION,
				Gadget.PLURAL, this.client);
	}

	@Test
	void unchangedStatusIsNotWrittenSoEachSpecChangeReconcilesTwice() throws ApiException {
		AtomicInteger reconciles = new AtomicInteger();
		start("stable", (gadget, context) -> {
			reconciles.incrementAndGet();
			gadget.setStatus(new Gadget.Status().color(gadget.getSpec().getColor()));
			context.updateStatus(gadget);
			return Result.done();
		});
		this.gadgets.create(labelled(Gadget.named(this.namespace.name(), "steady", "red"), "stable"))
			.throwsApiException();
		// a fresh object has no status: the PUT on /status works anyway
		await().atMost(TIMEOUT).until(() -> "red".equals(statusColor("steady")));
		// the write comes back as an update and reconciles once more, which
		// writes nothing
		await().atMost(TIMEOUT).until(() -> reconciles.get() == 2);
		await().during(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> reconciles.get() == 2);
		Gadget current = this.gadgets.get(this.namespace.name(), "steady").throwsApiException().getObject();
		current.getSpec().color = "blue";
		this.gadgets.update(current).throwsApiException();
		await().atMost(TIMEOUT).until(() -> "blue".equals(statusColor("steady")));
		await().during(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> reconciles.get() == 4);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void statusThatChangesOnEveryReconcileLoops() throws ApiException {
		AtomicInteger reconciles = new AtomicInteger();
		start("counter", (gadget, context) -> {
			int writes = reconciles.incrementAndGet();
			if (writes <= 10) {
				// a status that is never the same: every write is an update event, which
				// reconciles again
				gadget.setStatus(new Gadget.Status().color(gadget.getSpec().getColor()).writes(writes));
				context.updateStatus(gadget);
			}
			return Result.done();
		});
		this.gadgets.create(labelled(Gadget.named(this.namespace.name(), "looping", "red"), "counter"))
			.throwsApiException();
		// no spec change after the create, yet it reconciled again for each of its
		// own writes
		await().atMost(TIMEOUT).until(() -> reconciles.get() == 11);
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void statusIsAppliedOnAFreshObject() throws ApiException {
		start("applied", (gadget, context) -> {
			gadget.setStatus(new Gadget.Status().color("applied-" + gadget.getSpec().getColor()));
			context.applyStatus(gadget);
			return Result.done();
		});
		this.gadgets.create(labelled(Gadget.named(this.namespace.name(), "fresh", "green"), "applied"))
			.throwsApiException();
		await().atMost(TIMEOUT).until(() -> "applied-green".equals(statusColor("fresh")));
		assertThat(this.managers.errors()).isEmpty();
	}

	private String statusColor(String name) {
		Gadget gadget = this.gadgets.get(this.namespace.name(), name).getObject();
		return (gadget != null && gadget.getStatus() != null) ? gadget.getStatus().color : null;
	}

	private static Gadget labelled(Gadget gadget, String mode) {
		gadget.getMetadata().setLabels(Map.of("mode", mode));
		return gadget;
	}

	private void start(String name, ObjectReconciler<Gadget> reconciler) {
		this.managers.start(ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(Gadget.class)
				.named(name)
				.namespaces(this.namespace.name())
				.labelSelector("mode=" + name)
				.reconcile(reconciler)));
	}

}
