package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.time.ManualClock;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.sharding.ShardingSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShardDispatcher}'s retuning of the manager bucket.
 */
class ShardDispatcherTests {

	private final ManualClock ticker = new ManualClock();

	private final ShardingSettings settings = new ShardingSettings("shard", "default", "b", 32,
			new LeaseTiming(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(2)));

	@Test
	void clusterScopeDividesTheBucketAmongTheMembersAndRetunesOnEveryChange() {
		ManagerGate gate = gate(30, 30);
		ShardDispatcher run = run(gate, true);
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
		return new ManagerGate(new TokenBucketRateLimiter<>(qps, burst, this.ticker), Trigger.queued(), null);
	}

	private ShardDispatcher run(ManagerGate gate, boolean clusterRate) {
		return new ShardDispatcher(new ApiClient(), this.settings, clusterRate, List.of(), gate, this.ticker,
				this.ticker, Executors.defaultThreadFactory(), Duration.ofSeconds(30), Duration.ofSeconds(5));
	}

}
