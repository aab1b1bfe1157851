package dev.kubereconciler.autoconfigure.events;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.metrics.EventMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerEventsAutoConfiguration}.
 */
class KubeReconcilerEventsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerEventsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void providesOneRecorderPerController() {
		this.contextRunner.withPropertyValues("kube-reconciler.events.reporting-instance=pod-7").run((context) -> {
			EventRecorders recorders = context.getBean(EventRecorders.class);
			assertThat(recorders.reportingInstance()).isEqualTo("pod-7");
			EventRecorder widget = recorders.forController("widget");
			assertThat(recorders.forController("widget")).isSameAs(widget);
			assertThat(recorders.forController("mirror")).isNotSameAs(widget);
		});
	}

	@Test
	void seriesAreFinishedAndRefreshedOnAThreadApartFromTheWriter() {
		this.contextRunner.run((context) -> {
			KubeReconcilerEventsAutoConfiguration.EventThreads threads = context
				.getBean(KubeReconcilerEventsAutoConfiguration.EventThreads.class);
			// a backlog of writes on the writer's thread cannot hold the two jobs back
			assertThat(threads.seriesExecutor.getQueue()).hasSize(2);
			assertThat(threads.executor.getQueue()).isEmpty();
		});
	}

	@Test
	void canBeTurnedOff() {
		this.contextRunner.withPropertyValues("kube-reconciler.events.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(EventRecorders.class));
	}

	@Test
	void aBufferWithoutRoomFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("kube-reconciler.events.buffer-capacity=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidPropertyException.class)
				.hasMessageContaining("kube-reconciler.events.buffer-capacity");
		});
	}

	@Test
	void dropsAreCountedByControllerAndReason() {
		this.contextRunner.withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			EventMetrics metrics = context.getBean(EventMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			metrics.bindTo(registry);
			// an object without a name cannot have events: dropped as invalid, before
			// any write
			context.getBean(EventRecorders.class)
				.forController("widget")
				.warning(new V1ConfigMap(), "Failed", "Sync", "no name");
			assertThat(registry.get("kube.reconciler.events.dropped")
				.tag("controller", "widget")
				.tag("reason", "invalid")
				.counter()
				.count()).isEqualTo(1.0);
		});
	}

}
