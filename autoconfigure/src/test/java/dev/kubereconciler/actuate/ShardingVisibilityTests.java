package dev.kubereconciler.actuate;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.kubereconciler.actuate.ControllersEndpoint.ManagerDescriptor;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.metrics.ShardMetrics;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sharding.ShardingSettings;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for what the endpoint, the health indicator and the metrics show of sharding,
 * with two replicas and one partition, so that one of them holds nothing.
 */
@KubernetesTest
class ShardingVisibilityTests {

	ApiClient client;

	TestNamespace namespace;

	private final List<ControllerManager> managers = new ArrayList<>();

	@AfterEach
	void stop() {
		this.managers.forEach(ControllerManager::stop);
	}

	@Test
	void theEndpointHealthAndMetricsShowWhoHoldsWhat() throws Exception {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("only")).data(Map.of("v", "1")))
			.execute();
		ControllerManager first = start("first");
		await().atMost(Duration.ofSeconds(30)).until(() -> first.shardCoordinator().table().held().size() == 1);
		ControllerManager second = start("second");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> second.shardCoordinator().members().size() == 2
					&& first.shardCoordinator().members().size() == 2);
		ControllerManager holder = first.shardCoordinator().table().held().isEmpty() ? second : first;
		ControllerManager idle = (holder == first) ? second : first;
		await().atMost(Duration.ofSeconds(30))
			.until(() -> holder.shardCoordinator().table().held().size() == 1
					&& idle.shardCoordinator().table().held().isEmpty());

		ManagerDescriptor described = endpoint(holder).controllers().manager();
		assertThat(described.sharding().identity()).isEqualTo(holder.shardCoordinator().settings().identity());
		assertThat(described.sharding().members()).containsExactly("first", "second");
		assertThat(described.sharding().partitionsHeld()).containsExactly(0);
		assertThat(described.sharding().keys()).isEqualTo(Map.of(0, Map.of("visible", 1)));
		assertThat(endpoint(idle).controllers().manager().sharding().partitionsHeld()).isEmpty();

		Health idleHealth = new ControllersHealthIndicator(() -> idle).health(true);
		assertThat(idleHealth.getStatus()).isEqualTo(Status.UP);
		assertThat(idleHealth.getDetails()).containsEntry("partitionsHeld", 0);

		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new ShardMetrics(holder::shardCoordinator).bindTo(registry);
		assertThat(registry.get("kube_reconciler_shard_partitions_held").gauge().value()).isEqualTo(1);
		assertThat(registry.get("kube_reconciler_shard_members").gauge().value()).isEqualTo(2);
		assertThat(registry.get("kube_reconciler_shard_handovers").functionCounter().count())
			.isEqualTo(holder.shardCoordinator().handovers());
		// the sharded form of leader_election_master_status: the partitions held, summed
		// over the replicas, against the partitions there are
		SimpleMeterRegistry idleRegistry = new SimpleMeterRegistry();
		new ShardMetrics(idle::shardCoordinator).bindTo(idleRegistry);
		assertThat(registry.get("kube_reconciler_shard_partitions").gauge().value()).isEqualTo(1);
		assertThat(idleRegistry.get("kube_reconciler_shard_partitions").gauge().value()).isEqualTo(1);
		assertThat(idleRegistry.get("kube_reconciler_shard_partitions_held").gauge().value()).isZero();
	}

	@Test
	void theEndpointShowsNoShardingWhenItIsOff() {
		ControllerManager manager = ControllerManager.builder(this.client).build();
		assertThat(endpoint(manager).controllers().manager().sharding()).isNull();
	}

	private ControllersEndpoint endpoint(ControllerManager manager) {
		return new ControllersEndpoint(() -> manager, new ControllerActivity(Clock.systemUTC(), 3, 100), Show.ALWAYS);
	}

	private ControllerManager start(String identity) {
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("visible")
				.namespaces(this.namespace.name())
				.reconcileTimeout(Duration.ofMillis(800))
				.reconcile((request) -> Result.done()))
			.sharding(
					new ShardingSettings("visible", this.namespace.name(), identity, 1,
							new LeaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(200))),
					false)
			.build();
		this.managers.add(manager);
		manager.start();
		return manager;
	}

}
