package dev.kubereconciler.sample;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.UseMainMethod;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sample.external.ExternalApiController;
import dev.kubereconciler.sample.external.ExternalWidgetApi;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetStatus;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that the manager bucket, shared by both controllers, caps their reconciles and
 * with them the calls to the paid external API: no window of t seconds holds more than
 * burst + qps·t of either.
 */
@KubernetesTest
@SpringBootTest(useMainMethod = UseMainMethod.ALWAYS,
		properties = { "kube-reconciler.crds.apply=true", "sample.external-api.latency=2ms",
				"sample.external-api.failure-rate=0", "sample.widgets.verify-period=1h", "sample.widgets.retry.qps=100",
				"kube-reconciler.controllers.widget.max-concurrent-reconciles=4",
				"kube-reconciler.controllers.configmap-mirror.max-concurrent-reconciles=4",
				"kube-reconciler.manager.rate-limiter.qps=" + SharedBucketTests.QPS,
				"kube-reconciler.manager.rate-limiter.burst=" + SharedBucketTests.BURST })
@Import(SharedBucketTests.Admissions.class)
@DirtiesContext
class SharedBucketTests {

	static final int QPS = 10;

	static final int BURST = 5;

	private static final int WIDGETS = 25;

	private static final int CONFIG_MAPS = 5;

	private static final String NAMESPACE = TestObjects.uniqueNamespace("bucket");

	private ApiClient client;

	@Autowired
	private ExternalWidgetApi externalApi;

	@Autowired
	private ControllerRegistry controllers;

	@Autowired
	private ExternalApiController report;

	@Autowired
	private Admissions admissions;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("kube-reconciler.controllers.widget.namespaces", () -> NAMESPACE);
		registry.add("kube-reconciler.controllers.configmap-mirror.namespaces", () -> NAMESPACE);
		registry.add("sample.mirror.target-namespace", () -> NAMESPACE + "-copies");
	}

	@BeforeAll
	static void createNamespaces(ApiClient client) throws ApiException {
		TestObjects.createNamespace(client, NAMESPACE);
		TestObjects.createNamespace(client, NAMESPACE + "-copies");
	}

	@AfterAll
	static void deleteNamespaces(ApiClient client) throws ApiException {
		TestObjects.deleteNamespace(client, NAMESPACE);
		TestObjects.deleteNamespace(client, NAMESPACE + "-copies");
	}

	@Test
	void theSharedBucketCapsReconcilesOfBothControllersAndTheExternalCallsWithThem() throws ApiException {
		for (int i = 0; i < CONFIG_MAPS; i++) {
			new CoreV1Api(this.client)
				.createNamespacedConfigMap(NAMESPACE,
						new V1ConfigMap()
							.metadata(new V1ObjectMeta().name("settings-" + i).putLabelsItem("mirror", "true"))
							.data(Map.of("k", "v")))
				.execute();
		}
		for (int i = 0; i < WIDGETS; i++) {
			TestObjects.widgets(this.client)
				.create(TestObjects.widget(NAMESPACE, "widget-" + i, "blue", 1 + i))
				.throwsApiException();
		}
		await().atMost(Duration.ofMinutes(2)).until(this::readyWidgets, (ready) -> ready == WIDGETS);

		List<Long> reconciles = this.admissions.starts();
		List<Long> calls = this.externalApi.callStarts();
		assertThat(reconciles).hasSizeGreaterThan(WIDGETS + CONFIG_MAPS);
		assertThat(calls).hasSizeGreaterThanOrEqualTo(WIDGETS).hasSizeLessThanOrEqualTo(reconciles.size());
		// a reconcile starts once its token is due, give or take the wake-up of its
		// worker on a busy machine
		assertWithinBucket(reconciles, 2);
		// a call comes a little after its reconcile started: a cache read, a
		// finalizer patch
		assertWithinBucket(calls, 3);
		// and the cap did bind: unlimited, all of it would be over in well under a second
		double seconds = (reconciles.get(reconciles.size() - 1) - reconciles.get(0)) / 1e9;
		assertThat(seconds).isGreaterThan(0.9 * (reconciles.size() - BURST) / QPS);
		assertThat(this.report.report().withinManagerRate()).isTrue();
	}

	/**
	 * Assert that no window [t_i, t_j] holds more than burst + qps·(t_j − t_i) events,
	 * give or take the tolerance.
	 */
	private static void assertWithinBucket(List<Long> starts, int tolerance) {
		for (int i = 0; i < starts.size(); i++) {
			for (int j = i; j < starts.size(); j++) {
				double window = (starts.get(j) - starts.get(i)) / 1e9;
				int events = j - i + 1;
				assertThat(events).as("events %d..%d within %.3f s", i, j, window)
					.isLessThanOrEqualTo((int) Math.floor(BURST + QPS * window) + tolerance);
			}
		}
	}

	// read from the cache: a list through the API has no list class to type its items
	private int readyWidgets() {
		List<Widget> widgets = this.controllers.lister(Widget.class).namespace(NAMESPACE).list();
		return (int) widgets.stream()
			.filter((widget) -> widget.getStatus() != null && WidgetStatus.READY.equals(widget.getStatus().phase()))
			.count();
	}

	/**
	 * Records when every reconcile of every controller started, on the same ticker as the
	 * manager bucket.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class Admissions {

		private final List<Long> starts = new ArrayList<>();

		@Bean
		ControllerListener admissionRecorder() {
			return new ControllerListener() {

				@Override
				public void reconcileStarted(String controller, Request request) {
					record();
				}

			};
		}

		private synchronized void record() {
			this.starts.add(System.nanoTime());
		}

		synchronized List<Long> starts() {
			return new ArrayList<>(this.starts);
		}

	}

}
