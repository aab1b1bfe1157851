package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.Dynamics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.rbac.ApiRequest;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A status class as the docs allow it, without {@code equals}, against the real test API
 * server: a status that did not change is not written again, counted request by request.
 */
@KubernetesTest
class PlainStatusIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	private DynamicKubernetesApi gadgets;

	@BeforeEach
	void setUp() throws ApiException {
		Gadget.install(this.client);
		this.gadgets = new DynamicKubernetesApi(Gadget.GROUP, Gadget.VERSION, Gadget.PLURAL, this.client);
	}

	@Test
	void unchangedStatusOfAClassWithoutEqualsIsWrittenOnce() throws ApiException {
		ApiRequestRecorder recorder = new ApiRequestRecorder();
		ApiClient recorded = recorder.attach(this.client);
		Map<String, Boolean> touchesSeen = new ConcurrentHashMap<>();
		AtomicInteger reconciles = new AtomicInteger();
		this.managers.start(ControllerManager.builder(recorded)
			.controller(ControllerDefinition.builder(PlainGadget.class)
				.named("plain")
				.namespaces(this.namespace.name())
				.reconcile((gadget, context) -> {
					reconciles.incrementAndGet();
					Map<String, String> annotations = gadget.getMetadata().getAnnotations();
					if (annotations != null && annotations.containsKey("touch")) {
						touchesSeen.put(annotations.get("touch"), true);
					}
					// a new status object each time, equal in content only; the
					// number in the map comes back from the server as 2.0
					gadget.setStatus(new PlainGadget.Status(gadget.getSpec().color, 3, Map.of("tier", 2)));
					context.updateStatus(gadget);
					return Result.done();
				})));
		this.gadgets.create(Dynamics.newFromJson("""
				{"apiVersion":"test.kubereconciler.dev/v1","kind":"Gadget",
				 "metadata":{"name":"plain","namespace":"%s"},"spec":{"color":"red"}}
				""".formatted(this.namespace.name()))).throwsApiException();
		await().atMost(TIMEOUT)
			.until(() -> this.gadgets.get(this.namespace.name(), "plain").getObject().getRaw().has("status"));
		// each annotation changes the object but not what its status should be
		for (int touch = 1; touch <= 3; touch++) {
			String value = Integer.toString(touch);
			this.gadgets
				.patch(this.namespace.name(), "plain", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
						new V1Patch("{\"metadata\":{\"annotations\":{\"touch\":\"" + value + "\"}}}"))
				.throwsApiException();
			await().atMost(TIMEOUT)
				.untilAsserted(
						() -> assertThat(touchesSeen).as("errors %s", this.managers.errors()).containsKey(value));
		}
		assertThat(reconciles.get()).isGreaterThanOrEqualTo(4);
		assertThat(recorder.allRequests()).filteredOn(PlainStatusIntegrationTests::isStatusWrite)
			.as("status writes for %d reconciles", reconciles.get())
			.hasSize(1);
		assertThat(this.managers.errors()).isEmpty();
	}

	private static boolean isStatusWrite(ApiRequest request) {
		return "status".equals(request.subresource()) && "plain".equals(request.name())
				&& !request.verb().equals("get");
	}

}
