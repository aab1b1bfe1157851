package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.ratelimit.ManualClock;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.sharding.ShardingSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShardedRun}'s retuning of the manager bucket.
 */
class ShardedRunTests {

	private final ManualClock ticker = new ManualClock();

	private final ShardingSettings settings = new ShardingSettings("shard", "default", "b", 32, Duration.ofSeconds(30),
			Duration.ofSeconds(10), Duration.ofSeconds(2));

	@Test
	void clusterScopeDividesTheBucketAmongTheMembersAndRetunesOnEveryChange() {
		ManagerGate gate = gate(30, 30);
		ShardedRun run = run(gate, true);
		run.membersChanged(List.of("a", "b", "c"));
		assertThat(gate.bucket().qps()).isEqualTo(10);
		assertThat(gate.bucket().burst()).isEqualTo(10);
		run.membersChanged(List.of("a", "b"));
		assertThat(gate.bucket().qps()).isEqualTo(15);
		assertThat(gate.bucket().burst()).isEqualTo(15);
		run.membersChanged(List.of("b"));
		assertThat(gate.bucket().qps()).isEqualTo(30);
		assertThat(gate.bucket().burst()).isEqualTo(30);
	}

	@Test
	void replicaScopeKeepsTheConfiguredRate() {
		ManagerGate gate = gate(30, 30);
		run(gate, false).membersChanged(List.of("a", "b", "c"));
		assertThat(gate.bucket().qps()).isEqualTo(30);
		assertThat(gate.bucket().burst()).isEqualTo(30);
	}

	private ManagerGate gate(double qps, int burst) {
		return new ManagerGate(new TokenBucketRateLimiter<>(qps, burst, this.ticker), EnumSet.allOf(AddCause.class),
				null);
	}

	private ShardedRun run(ManagerGate gate, boolean clusterRate) {
		return new ShardedRun(new ApiClient(), this.settings, clusterRate, List.of(), gate, this.ticker, this.ticker,
				ControllerManagerBuilder.defaultThreadFactory(), Duration.ofSeconds(30), Duration.ofSeconds(5));
	}

}
