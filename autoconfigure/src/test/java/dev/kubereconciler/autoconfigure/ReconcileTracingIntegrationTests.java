package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.observation.ReconcileObservationContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with Micrometer Tracing's {@link SimpleTracer} as its tracer, as a user
 * plugs Brave or OpenTelemetry: each reconcile is a span, the API requests it makes are
 * its children, its key values say how it ended, and the reconcile time histogram links
 * its bucket to the trace.
 */
@KubernetesTest
@SpringBootTest(classes = ReconcileTracingIntegrationTests.Application.class)
class ReconcileTracingIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Autowired
	private SimpleTracer tracer;

	@Autowired
	private StoppedReconciles stopped;

	@Autowired
	private PrometheusMeterRegistry prometheus;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void aReconcileIsASpanWithItsApiRequestsAsChildren() throws ApiException {
		create("source", "traced");
		SimpleSpan reconcile = await().atMost(TIMEOUT).until(() -> span("reconcile traced"), (span) -> span != null);
		assertThat(reconcile.getTags()).containsEntry("controller", "traced")
			.containsEntry("result", "success")
			.containsEntry("outcome", "success")
			.containsEntry("trigger", "event")
			.containsEntry("request", this.namespace.name() + "/source");
		assertThat(reconcile.getParentId()).isEmpty();
		List<SimpleSpan> children = this.tracer.getSpans()
			.stream()
			.filter((span) -> span.getParentId().equals(reconcile.getSpanId()))
			.toList();
		assertThat(children).extracting(SimpleSpan::getName).containsExactly("get configmaps", "create configmaps");
		assertThat(children).allSatisfy((child) -> {
			assertThat(child.getTraceId()).isEqualTo(reconcile.getTraceId());
			assertThat(child.getTags()).containsEntry("resource", "configmaps")
				.containsEntry("subresource", "none")
				.containsEntry("namespace", this.namespace.name());
		});
		assertThat(children.get(0).getTags()).containsEntry("method", "GET")
			.containsEntry("verb", "get")
			.containsEntry("status", "200")
			.containsEntry("name", "source")
			.containsEntry("url.path", "/api/v1/namespaces/" + this.namespace.name() + "/configmaps/source");
		assertThat(children.get(1).getTags()).containsEntry("method", "POST")
			.containsEntry("verb", "create")
			.containsEntry("status", "201")
			.containsEntry("name", "");
	}

	@Test
	void theReconcileTimeBucketLinksToTheTrace() throws ApiException {
		create("exemplar", "traced");
		await().atMost(TIMEOUT)
			.until(() -> span("reconcile traced", this.namespace.name() + "/exemplar"), (span) -> span != null);
		// a bucket keeps the exemplar of one recent reconcile, not necessarily this one's
		List<String> reconciles = this.tracer.getSpans()
			.stream()
			.filter((span) -> "reconcile traced".equals(span.getName()))
			.map((span) -> "{span_id=\"" + span.getSpanId() + "\",trace_id=\"" + span.getTraceId() + "\"}")
			.toList();
		String scrape = this.prometheus.scrape("application/openmetrics-text");
		assertThat(scrape.lines()
			.filter((line) -> line.startsWith("controller_runtime_reconcile_time_seconds_bucket{controller=\"traced\""))
			.filter((line) -> line.contains(" # {"))
			.map((line) -> line.substring(line.indexOf(" # {") + 3, line.indexOf('}', line.indexOf(" # {")) + 1)))
			.isNotEmpty()
			.allSatisfy((exemplar) -> assertThat(reconciles).contains(exemplar));
	}

	@Test
	void springBootsMeterHandlerTimesTheObservationsByTheirLowCardinalityKeys() throws ApiException {
		create("timed", "traced");
		await().atMost(TIMEOUT)
			.until(() -> span("reconcile traced", this.namespace.name() + "/timed"), (span) -> span != null);
		assertThat(this.prometheus.scrape()).contains(
				"kube_reconciler_reconcile_seconds_count{controller=\"traced\",error=\"none\",outcome=\"success\","
						+ "result=\"success\",trigger=\"event\"} ",
				"kube_reconciler_api_requests_seconds_count{error=\"none\",method=\"GET\",resource=\"configmaps\","
						+ "status=\"200\",subresource=\"none\",verb=\"get\"} ",
				"kube_reconciler_api_requests_seconds_count{error=\"none\",method=\"POST\",resource=\"configmaps\","
						+ "status=\"201\",subresource=\"none\",verb=\"create\"} ");
	}

	@Test
	void anErrorAndARequeueAreTheObservationsLowCardinalityKeys() throws ApiException {
		create("fails", "flaky");
		create("requeues", "flaky");
		await().atMost(TIMEOUT).until(() -> this.stopped.of(this.namespace.name() + "/fails").size() == 2);
		await().atMost(TIMEOUT).until(() -> this.stopped.of(this.namespace.name() + "/requeues").size() == 2);
		assertThat(this.stopped.of(this.namespace.name() + "/fails")).containsExactly(
				List.of(KeyValue.of("controller", "flaky"), KeyValue.of("outcome", "error"),
						KeyValue.of("result", "error"), KeyValue.of("trigger", "event")),
				List.of(KeyValue.of("controller", "flaky"), KeyValue.of("outcome", "success"),
						KeyValue.of("result", "success"), KeyValue.of("trigger", "retry")));
		assertThat(this.stopped.of(this.namespace.name() + "/requeues")).containsExactly(
				List.of(KeyValue.of("controller", "flaky"), KeyValue.of("outcome", "requeue"),
						KeyValue.of("result", "requeue"), KeyValue.of("trigger", "event")),
				List.of(KeyValue.of("controller", "flaky"), KeyValue.of("outcome", "success"),
						KeyValue.of("result", "success"), KeyValue.of("trigger", "retry")));
		assertThat(span("reconcile flaky", this.namespace.name() + "/fails").getError())
			.isInstanceOf(IllegalStateException.class);
	}

	private void create(String name, String label) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("observed", label)))
						.data(Map.of("greeting", "hello")))
			.execute();
	}

	private SimpleSpan span(String name) {
		return span(name, this.namespace.name() + "/source");
	}

	private SimpleSpan span(String name, String request) {
		return this.tracer.getSpans()
			.stream()
			.filter((span) -> name.equals(span.getName()) && request.equals(span.getTags().get("request")))
			.findFirst()
			.orElse(null);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerMetricsAutoConfiguration.class, KubeReconcilerObservationAutoConfiguration.class,
			ObservationAutoConfiguration.class, MicrometerTracingAutoConfiguration.class,
			PrometheusExemplarsAutoConfiguration.class, MetricsAutoConfiguration.class,
			CompositeMeterRegistryAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class })
	static class Application {

		// SimpleTracer samples no span; a bridge samples by
		// management.tracing.sampling.probability, and exemplars link sampled spans only
		@Bean
		SimpleTracer tracer() {
			return new SimpleTracer() {

				@Override
				public SimpleSpan nextSpan() {
					return sampled(super.nextSpan());
				}

				@Override
				public SimpleSpan nextSpan(Span parent) {
					return sampled(super.nextSpan(parent));
				}

				private SimpleSpan sampled(SimpleSpan span) {
					span.context().setSampled(true);
					return span;
				}

			};
		}

		@Bean
		StoppedReconciles stoppedReconciles() {
			return new StoppedReconciles();
		}

		@Bean
		Reconcilers reconcilers(ApiClient apiClient) {
			return new Reconcilers(new CoreV1Api(apiClient));
		}

	}

	static class Reconcilers {

		private final CoreV1Api api;

		private final Map<Request, AtomicInteger> attempts = new ConcurrentHashMap<>();

		Reconcilers(CoreV1Api api) {
			this.api = api;
		}

		// reads its ConfigMap and writes a copy
		@Reconciler(name = "traced", watches = V1ConfigMap.class, labelSelector = "observed=traced")
		Result traced(Request request) throws ApiException {
			V1ConfigMap source = this.api.readNamespacedConfigMap(request.name(), request.namespace()).execute();
			this.api
				.createNamespacedConfigMap(request.namespace(),
						new V1ConfigMap().metadata(new V1ObjectMeta().name(request.name() + "-copy"))
							.data(source.getData()))
				.execute();
			return Result.done();
		}

		// fails or requeues once, then succeeds
		@Reconciler(name = "flaky", watches = V1ConfigMap.class, labelSelector = "observed=flaky")
		Result flaky(Request request) {
			boolean first = this.attempts.computeIfAbsent(request, (key) -> new AtomicInteger()).incrementAndGet() == 1;
			if (first && request.name().equals("fails")) {
				throw new IllegalStateException("first attempt fails");
			}
			return first ? Result.requeue() : Result.done();
		}

	}

	/**
	 * The low-cardinality key values of each stopped reconcile observation, by request.
	 */
	static class StoppedReconciles implements ObservationHandler<ReconcileObservationContext> {

		private final Map<String, Queue<List<KeyValue>>> byRequest = new ConcurrentHashMap<>();

		@Override
		public void onStop(ReconcileObservationContext context) {
			this.byRequest.computeIfAbsent(context.getRequest().key(), (key) -> new ConcurrentLinkedQueue<>())
				.add(context.getLowCardinalityKeyValues().stream().toList());
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof ReconcileObservationContext;
		}

		List<List<KeyValue>> of(String request) {
			return List.copyOf(this.byRequest.getOrDefault(request, new ConcurrentLinkedQueue<>()));
		}

	}

}
