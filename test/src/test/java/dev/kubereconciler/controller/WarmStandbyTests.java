package dev.kubereconciler.controller;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for a warm and a cold standby against the real test API server. Another holder's
 * Lease keeps the manager a follower until the test deletes it, so that the test decides
 * when it wins.
 */
@KubernetesTest
class WarmStandbyTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	ApiClient client;

	TestNamespace namespace;

	private final List<String> reconciled = new CopyOnWriteArrayList<>();

	// whether every cache had synced when the controller's workers started
	private final AtomicReference<Boolean> syncedWhenRunning = new AtomicReference<>();

	private ControllerManager manager;

	// the namespace is the whole class's: each test has its own Lease and label
	private String test;

	@BeforeEach
	void holdTheLeaseElsewhereAndCreateAnObject(TestInfo info) throws ApiException {
		this.test = info.getTestMethod().orElseThrow().getName().startsWith("warm") ? "warm" : "cold";
		OffsetDateTime now = OffsetDateTime.now();
		new CoordinationV1Api(this.client)
			.createNamespacedLease(this.namespace.name(),
					new V1Lease().metadata(new V1ObjectMeta().name(lease()))
						.spec(new V1LeaseSpec().holderIdentity("another-replica")
							.leaseDurationSeconds(60)
							.acquireTime(now)
							.renewTime(now)))
			.execute();
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(this.test + "-before").labels(Map.of("test", this.test))))
			.execute();
	}

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void warmStandbySyncsItsCacheBeforeItLeads() throws ApiException {
		this.manager = start(true);
		// start() returned, so the cache synced, while another replica holds the Lease
		assertThat(this.manager.isLeader()).isFalse();
		assertThat(this.manager.cachesStarted()).isTrue();
		assertThat(this.manager.hasSynced()).isTrue();
		assertThat(names(this.manager)).containsExactly(this.test + "-before");
		assertThat(this.manager.controller("standby").state()).isEqualTo(ControllerState.WAITING_FOR_LEADERSHIP);
		await().during(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> !this.manager.isLeader());
		assertThat(this.reconciled).isEmpty();
		winTheLease();
		assertThat(this.syncedWhenRunning.get()).isTrue();
		await().atMost(TIMEOUT).until(() -> this.reconciled.contains(this.test + "-before"));
	}

	@Test
	void coldStandbyStartsItsInformersOnlyOnceItWinsTheLease() throws ApiException {
		this.manager = start(false);
		await().during(Duration.ofSeconds(1)).atMost(TIMEOUT).until(() -> !this.manager.isLeader());
		assertThat(this.manager.cachesStarted()).isFalse();
		assertThat(this.manager.hasSynced()).isFalse();
		assertThat(names(this.manager)).isEmpty();
		assertThat(this.manager.controller("standby").state()).isEqualTo(ControllerState.WAITING_FOR_LEADERSHIP);
		assertThat(this.reconciled).isEmpty();
		winTheLease();
		// the workers started only after the list the cold standby made once it won
		assertThat(this.syncedWhenRunning.get()).isTrue();
		assertThat(this.manager.cachesStarted()).isTrue();
		assertThat(names(this.manager)).containsExactly(this.test + "-before");
		await().atMost(TIMEOUT).until(() -> this.reconciled.contains(this.test + "-before"));
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(this.test + "-after").labels(Map.of("test", this.test))))
			.execute();
		await().atMost(TIMEOUT).until(() -> this.reconciled.contains(this.test + "-after"));
	}

	private void winTheLease() throws ApiException {
		new CoordinationV1Api(this.client).deleteNamespacedLease(lease(), this.namespace.name()).execute();
		await().atMost(TIMEOUT).until(this.manager::isLeader);
		await().atMost(TIMEOUT).until(() -> this.syncedWhenRunning.get() != null);
	}

	private ControllerManager start(boolean warmup) {
		AtomicReference<ControllerManager> self = new AtomicReference<>();
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("standby")
				.namespaces(this.namespace.name())
				.labelSelector("test=" + this.test)
				.reconcile((request) -> {
					this.reconciled.add(request.name());
					return Result.done();
				}))
			// a lease duration longer than the test, so that only deleting the Lease
			// lets this manager win it
			.leaderElection(new LeaderElectionSettings(lease(), this.namespace.name(), "standby",
					new LeaseTiming(Duration.ofMinutes(5), Duration.ofSeconds(3), Duration.ofMillis(200)))
				.withWarmup(warmup))
			.listener(new ControllerListener() {

				@Override
				public void stateChanged(String controller, ControllerState state) {
					if (state == ControllerState.RUNNING) {
						WarmStandbyTests.this.syncedWhenRunning.compareAndSet(null, self.get().hasSynced());
					}
				}

			})
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		self.set(manager);
		manager.start();
		return manager;
	}

	private String lease() {
		return "standby-" + this.test;
	}

	private static List<String> names(ControllerManager manager) {
		return manager.lister(V1ConfigMap.class).list().stream().map((map) -> map.getMetadata().getName()).toList();
	}

}
