package dev.kubereconciler.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.kubereconciler.actuate.ControllerActivity;
import dev.kubereconciler.actuate.ControllersEndpoint;
import dev.kubereconciler.actuate.ControllersEndpoint.ManagerDescriptor;
import dev.kubereconciler.actuate.ControllersHealthIndicator;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.ClusterState;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fleet's clusters on the {@code controllers} endpoint and the health indicator: a
 * cluster whose API server does not answer shows as unreachable, and holds up neither the
 * manager's health nor its stop.
 */
class FleetEndpointTests {

	@Test
	void anUnreachableClusterShowsAsUnreachableAndHoldsUpNeitherHealthNorStop() {
		ControllerManager manager = ControllerManager.builder(unreachable())
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("fleet-mirror")
				.clusters(ClusterScope.FLEET)
				.reconcile((request) -> Result.done()))
			.build();
		manager.start();
		try {
			manager.fleet().engage("nowhere", unreachable());
			ClusterStatus nowhere = new ClusterStatus("nowhere", ClusterState.UNREACHABLE, 1);
			// its informer's first list finds no server
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(
						new ControllersEndpoint(() -> manager, new ControllerActivity(), Show.ALWAYS).controllers()
							.clusters())
					.containsExactly(nowhere));
			Health health = new ControllersHealthIndicator(() -> manager).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsAllEntriesOf(Map.of("clusters", List.of(nowhere)));
		}
		finally {
			manager.stop();
		}
		assertThat(manager.isRunning()).isFalse();
	}

	@Test
	void aSplitManagerBucketShowsEachMemberClustersOwnBucketRetunedWithTheManagers() {
		ControllerManager manager = ControllerManager.builder(unreachable())
			.gate(new ManagerGate(RateLimiters.bucket(30, 30), Trigger.queued(), null))
			.gateAcrossClusters(ManagerGate.AcrossClusters.SPLIT)
			.build();
		ControllersEndpoint endpoint = new ControllersEndpoint(() -> manager, new ControllerActivity(), Show.ALWAYS);
		manager.gate().forCluster("east");
		ManagerDescriptor retuned = endpoint.retuneManager(10.0, 5);
		assertThat(retuned.acrossClusters()).isEqualTo("split");
		assertThat(retuned.rateLimiter().config()).containsEntry("qps", 10.0).containsEntry("burst", 5);
		assertThat(retuned.clusterRateLimiters()).containsOnlyKeys("east");
		assertThat(retuned.clusterRateLimiters().get("east").config()).containsEntry("qps", 10.0)
			.containsEntry("burst", 5);
		ControllerManager shared = ControllerManager.builder(unreachable()).build();
		ManagerDescriptor one = new ControllersEndpoint(() -> shared, new ControllerActivity(), Show.ALWAYS)
			.controllers()
			.manager();
		assertThat(one.acrossClusters()).isEqualTo("shared");
		assertThat(one.clusterRateLimiters()).isNull();
	}

	private static ApiClient unreachable() {
		return new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0);
	}

}
