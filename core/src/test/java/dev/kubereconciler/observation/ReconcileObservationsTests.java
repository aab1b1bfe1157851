package dev.kubereconciler.observation;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReconcileObservations}: off without a handler, and the meters Spring
 * Boot's meter handler makes of a reconcile's observation.
 */
class ReconcileObservationsTests {

	@Test
	void isOffWithoutAHandler() {
		assertThat(ReconcileObservations.of(ObservationRegistry.NOOP).isOff()).isTrue();
		assertThat(ReconcileObservations.of(ObservationRegistry.create()).isOff()).isTrue();
		ObservationRegistry observed = ObservationRegistry.create();
		observed.observationConfig().observationHandler((context) -> true);
		assertThat(ReconcileObservations.of(observed).isOff()).isFalse();
	}

	@Test
	void theMeterHandlerTimesEachReconcileByItsLowCardinalityKeys() {
		PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		ReconcileObservations observations = ReconcileObservations.of(registry);
		ReconcileObservations.Started failed = observations.start("mirror", new Request("default", "a"), Trigger.EVENT);
		assertThat(registry.getCurrentObservation()).isNotNull();
		failed.ended(ReconcileOutcome.TERMINAL_ERROR, new IllegalStateException("broken"));
		failed.stop();
		assertThat(registry.getCurrentObservation()).isNull();
		observations.start("mirror", new Request("default", "b"), Trigger.RETRY).stop();
		assertThat(meters.scrape()).contains(
				"kube_reconciler_reconcile_seconds_count{controller=\"mirror\",error=\"IllegalStateException\","
						+ "outcome=\"terminal_error\",result=\"error\",trigger=\"event\"} 1",
				"kube_reconciler_reconcile_seconds_count{controller=\"mirror\",error=\"none\","
						+ "outcome=\"error\",result=\"error\",trigger=\"retry\"} 1",
				"kube_reconciler_reconcile_active_seconds_count{controller=\"mirror\",outcome=\"unknown\","
						+ "result=\"unknown\",trigger=\"event\"} 0");
	}

}
