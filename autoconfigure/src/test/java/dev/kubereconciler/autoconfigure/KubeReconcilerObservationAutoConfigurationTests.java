package dev.kubereconciler.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.observation.ApiRequestObservationInterceptor;
import dev.kubereconciler.observation.DefaultReconcileObservationConvention;
import dev.kubereconciler.observation.ReconcileObservationContext;
import dev.kubereconciler.observation.ReconcileObservationConvention;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerObservationAutoConfiguration}.
 */
class KubeReconcilerObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerObservationAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	private final ApplicationContextRunner withRegistry = this.contextRunner
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class));

	@Test
	void noObservationRegistryMeansNoObservations() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(ReconcileObservations.class);
			assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors())
				.noneMatch(ApiRequestObservationInterceptor.class::isInstance);
		});
	}

	@Test
	void aRegistryWithoutHandlerObservesNothing() {
		this.withRegistry.run((context) -> assertThat(context.getBean(ReconcileObservations.class).isOff()).isTrue());
	}

	@Test
	void everyApiClientBeanObservesItsRequestsFirst() {
		this.withRegistry
			.run((context) -> assertThat(context.getBean(ApiClient.class).getHttpClient().interceptors()).first()
				.isInstanceOf(ApiRequestObservationInterceptor.class));
	}

	@Test
	void aConventionBeanReplacesTheDefault() {
		this.withRegistry.withBean(Reconciles.class, Reconciles::new)
			.withBean(ReconcileObservationConvention.class, () -> new DefaultReconcileObservationConvention() {

				@Override
				public String getContextualName(ReconcileObservationContext context) {
					return "sync " + context.getRequest();
				}

			})
			.run((context) -> {
				reconcile(context.getBean(ReconcileObservations.class));
				assertThat(context.getBean(Reconciles.class).names).containsExactly("sync default/a");
			});
	}

	@Test
	void springBootsEnablePropertyTurnsThemOff() {
		this.withRegistry.withBean(Reconciles.class, Reconciles::new)
			.withPropertyValues("management.observations.enable.kube.reconciler=false")
			.run((context) -> {
				reconcile(context.getBean(ReconcileObservations.class));
				assertThat(context.getBean(Reconciles.class).names).isEmpty();
			});
	}

	private static void reconcile(ReconcileObservations observations) {
		assertThat(observations.isOff()).isFalse();
		observations.start("mirror", new Request("default", "a"), Trigger.EVENT).stop();
	}

	static class Reconciles implements ObservationHandler<ReconcileObservationContext> {

		final List<String> names = new CopyOnWriteArrayList<>();

		@Override
		public void onStop(ReconcileObservationContext context) {
			this.names.add(String.valueOf(context.getContextualName()));
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof ReconcileObservationContext;
		}

	}

}
