package dev.kubereconciler.actuate;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ControllersHealthIndicator} with managers that really start, against
 * the test API server, or that fail to because their informers cannot sync, and for a
 * cold standby's health and readiness.
 */
@KubernetesTest
class ControllersHealthIndicatorTests {

	private ControllerManager manager;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void unknownUntilStartedThenUpWithEachControllersState(ApiClient client, TestNamespace namespace) {
		this.manager = manager(client, namespace, Duration.ofSeconds(30));
		ControllersHealthIndicator indicator = new ControllersHealthIndicator(() -> this.manager);
		assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UNKNOWN);
		this.manager.start();
		Health health = indicator.health(true);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("running", true)
			.containsEntry("leader", true)
			.containsEntry("cachesSynced", true)
			.containsEntry("controllers",
					Map.of("mirror", Map.of("status", "UP", "state", "running", "watches", "v1/ConfigMap")));
	}

	@Test
	void pausedIsStillUp(ApiClient client, TestNamespace namespace) {
		this.manager = manager(client, namespace, Duration.ofSeconds(30));
		this.manager.start();
		this.manager.controller("mirror").pause();
		assertThat(new ControllersHealthIndicator(() -> this.manager).health(true).getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void downWhenAControllerStopsWhileTheManagerRuns(ApiClient client, TestNamespace namespace) {
		this.manager = manager(client, namespace, Duration.ofSeconds(30));
		this.manager.start();
		((WorkQueueController) this.manager.controller("mirror")).stop(Duration.ZERO);
		Health health = new ControllersHealthIndicator(() -> this.manager).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("controllers",
				Map.of("mirror", Map.of("status", "DOWN", "state", "stopped", "watches", "v1/ConfigMap")));
	}

	@Test
	void downWhenAnInformerFailsToSync() {
		ApiClient unreachable = new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0);
		ControllerManager failing = manager(unreachable, new TestNamespace("default"), Duration.ofMillis(300));
		assertThatIllegalStateException().isThrownBy(failing::start).withMessageContaining("did not sync");
		Health health = new ControllersHealthIndicator(() -> failing).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("running", false)
			.containsEntry("cachesSynced", false)
			.containsEntry("controllers",
					Map.of("mirror", Map.of("status", "DOWN", "state", "failed", "watches", "v1/ConfigMap")));
	}

	@Test
	void aColdStandbyWaitingForTheLeaseIsUpAndReadyBeforeItsInformersStart(ApiClient client, TestNamespace namespace)
			throws ApiException {
		OffsetDateTime now = OffsetDateTime.now();
		new CoordinationV1Api(client)
			.createNamespacedLease(namespace.name(),
					new V1Lease().metadata(new V1ObjectMeta().name("held-elsewhere"))
						.spec(new V1LeaseSpec().holderIdentity("another-replica")
							.leaseDurationSeconds(300)
							.acquireTime(now)
							.renewTime(now)))
			.execute();
		this.manager = ControllerManager.builder(client)
			.shutdownTimeout(Duration.ofSeconds(5))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("mirror")
				.namespaces(namespace.name())
				.reconcile((request) -> Result.done()))
			.leaderElection(new LeaderElectionSettings("held-elsewhere", namespace.name(), "cold",
					new LeaseTiming(Duration.ofMinutes(5), Duration.ofSeconds(3), Duration.ofMillis(200)))
				.withWarmup(false))
			.build();
		this.manager.start();
		Health health = new ControllersHealthIndicator(() -> this.manager).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("leader", false)
			.containsEntry("cachesStarted", false)
			.containsEntry("cachesSynced", false);
		Health readiness = new ControllersReadinessIndicator(() -> this.manager).health(true);
		assertThat(readiness.getStatus()).isEqualTo(Status.UP);
		assertThat(readiness.getDetails()).containsEntry("cachesStarted", false);
	}

	private static ControllerManager manager(ApiClient client, TestNamespace namespace, Duration cacheSyncTimeout) {
		return ControllerManager.builder(client)
			.shutdownTimeout(Duration.ofSeconds(5))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("mirror")
				.namespaces(namespace.name())
				.cacheSyncTimeout(cacheSyncTimeout)
				.reconcile((request) -> Result.done()))
			.build();
	}

}
