package dev.kubereconciler.autoconfigure.actuate;

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
import dev.kubereconciler.actuate.ControllersHealthIndicator;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.ClusterState;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet's clusters on the {@code controllers} endpoint and the health indicator: a
 * cluster whose API server does not answer shows as syncing, and holds up neither the
 * manager's health nor its stop.
 */
class FleetEndpointTests {

	@Test
	void anUnreachableClusterShowsAsSyncingAndHoldsUpNeitherHealthNorStop() {
		ControllerManager manager = ControllerManager.builder(unreachable())
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("fleet-mirror")
				.clusters(ClusterScope.FLEET)
				.reconcile((request) -> Result.done()))
			.build();
		manager.start();
		try {
			manager.fleet().engage("nowhere", unreachable());
			ClusterStatus nowhere = new ClusterStatus("nowhere", ClusterState.SYNCING, 1);
			assertThat(new ControllersEndpoint(() -> manager, new ControllerActivity(), Show.ALWAYS).controllers()
				.clusters()).containsExactly(nowhere);
			Health health = new ControllersHealthIndicator(() -> manager).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsAllEntriesOf(Map.of("clusters", List.of(nowhere)));
		}
		finally {
			manager.stop();
		}
		assertThat(manager.isRunning()).isFalse();
	}

	private static ApiClient unreachable() {
		return new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0);
	}

}
