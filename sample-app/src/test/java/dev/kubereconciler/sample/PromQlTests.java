package dev.kubereconciler.sample;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PromQl}, the reading of PromQL that the real-Prometheus test's
 * verdicts rest on.
 */
class PromQlTests {

	@Test
	void anAlertWithoutItsThresholdKeepsEverythingBeforeItsLastTopLevelComparison() {
		assertThat(PromQl.withoutThreshold("sum by (job) (rate(a_total[5m])) / sum by (job) (rate(b_total[5m])) > 0.1"))
			.isEqualTo("sum by (job) (rate(a_total[5m])) / sum by (job) (rate(b_total[5m]))");
		assertThat(PromQl.withoutThreshold("max by (name) (leader_election_master_status) < 1"))
			.isEqualTo("max by (name) (leader_election_master_status)");
		assertThat(PromQl
			.withoutThreshold("histogram_quantile(0.9, sum by (le) (rate(x_bucket{source=~\"a|b\"}[10m]))) >= 10"))
			.isEqualTo("histogram_quantile(0.9, sum by (le) (rate(x_bucket{source=~\"a|b\"}[10m])))");
	}

	@Test
	void comparisonsInsideParenthesesOrSelectorsAreNoThreshold() {
		assertThat(PromQl.withoutThreshold("sum(x{code!=\"200\"} > 0)")).isEqualTo("sum(x{code!=\"200\"} > 0)");
		assertThat(PromQl.withoutThreshold("x{a=\">\"} == 1")).isEqualTo("x{a=\">\"}");
	}

	@Test
	void metricNamesLeaveOutFunctionsAggregationsGroupingLabelsAndDurations() {
		assertThat(PromQl.metricNames(
				"histogram_quantile(0.99, sum(rate(workqueue_queue_duration_seconds_bucket{job=\"j\", name=~\"a|b\"}[5m])) by (instance, name, le))"))
			.containsExactly("workqueue_queue_duration_seconds_bucket");
		assertThat(PromQl.metricNames("time() - max by (pod) (process_start_time_seconds) + on (pod) group_left up"))
			.containsExactly("process_start_time_seconds", "up");
		assertThat(PromQl.metricNames("rate(process_cpu_seconds_total[1m]) * 100 > bool 1e-3"))
			.containsExactly("process_cpu_seconds_total");
	}

}
