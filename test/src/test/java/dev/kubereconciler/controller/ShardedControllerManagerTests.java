package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.rbac.ControllerRbac;
import dev.kubereconciler.rbac.RbacRules;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sharding.Assignment;
import dev.kubereconciler.sharding.Partitioner;
import dev.kubereconciler.sharding.ShardingSettings;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.rbac.RbacAuthorizer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ControllerManager} with sharding, two managers in one JVM against the
 * real test API server: keys split by partition, no key reconciled by both at once, and a
 * graceful leave hands everything to the survivor.
 */
@KubernetesTest
class ShardedControllerManagerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final int PARTITIONS = 8;

	private static final int OBJECTS = 24;

	private static final AtomicInteger GROUPS = new AtomicInteger();

	ApiClient client;

	TestNamespace namespace;

	private final String group = "sharded-" + GROUPS.incrementAndGet();

	private final List<ControllerManager> managers = new ArrayList<>();

	private final List<Reconcile> reconciles = new CopyOnWriteArrayList<>();

	private final Partitioner partitioner = new Partitioner(PARTITIONS);

	KubernetesTestServer server;

	// the replicas' own client, whose every request, the Lease requests of a graceful
	// leave included, must be allowed by the derived RBAC rules
	private ApiRequestRecorder.Recorded replicaClient;

	@BeforeEach
	void recordReplicaRequests() {
		this.replicaClient = ApiRequestRecorder.record(this.server.apiClient());
	}

	@AfterEach
	void stopManagersAndCheckTheirRequestsAgainstTheDerivedRbac() {
		this.managers.forEach(ControllerManager::stop);
		if (this.managers.isEmpty()) {
			return;
		}
		RbacRules rules = ControllerRbac.derive(this.managers.stream()
			.flatMap((manager) -> manager.controllers().values().stream())
			.map(Controller::definition)
			.toList());
		rules.shardLeases(this.namespace.name());
		RbacAuthorizer.assertAllowed(rules.build(), this.replicaClient.recorder().requests());
	}

	@Test
	void twoReplicasSplitTheKeysWithoutOverlapAndTheSurvivorTakesAllAfterALeave() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < OBJECTS; i++) {
			core.createNamespacedConfigMap(this.namespace.name(), configMap("object-" + i)).execute();
		}
		ControllerManager a = start("a");
		await().atMost(TIMEOUT).until(() -> reconciledKeys("a").size() == OBJECTS);
		ControllerManager b = start("b");
		Assignment split = Assignment.compute(List.of("a", "b"), PARTITIONS);
		await().atMost(TIMEOUT)
			.until(() -> a.shardCoordinator().table().held().equals(split.partitionsOf("a"))
					&& b.shardCoordinator().table().held().equals(split.partitionsOf("b")));
		assertThat(b.shardCoordinator().members()).containsExactly("a", "b");
		// b enqueued the cached keys of every partition it acquired
		await().atMost(TIMEOUT).until(() -> reconciledKeys("b").size() == keysOwnedBy(split, "b").size());
		assertThat(b.shardKeyCounts().keySet()).containsExactlyElementsOf(split.partitionsOf("b"));
		int before = this.reconciles.size();
		for (int i = 0; i < OBJECTS; i++) {
			V1ConfigMap current = core.readNamespacedConfigMap("object-" + i, this.namespace.name()).execute();
			core.replaceNamespacedConfigMap("object-" + i, this.namespace.name(), current.data(Map.of("v", "2")))
				.execute();
		}
		await().atMost(TIMEOUT)
			.until(() -> this.reconciles.subList(before, this.reconciles.size())
				.stream()
				.map(Reconcile::key)
				.collect(Collectors.toSet())
				.size() == OBJECTS);
		for (Reconcile reconcile : this.reconciles.subList(before, this.reconciles.size())) {
			assertThat(reconcile.replica()).as(reconcile.key())
				.isEqualTo(split.ownerOf(this.partitioner.partitionOf(Request.fromKey(reconcile.key()))));
		}
		b.stop();
		await().atMost(TIMEOUT).until(() -> a.shardCoordinator().table().held().size() == PARTITIONS);
		assertThat(a.shardCoordinator().members()).containsExactly("a");
		int afterLeave = this.reconciles.size();
		for (int i = 0; i < OBJECTS; i++) {
			V1ConfigMap current = core.readNamespacedConfigMap("object-" + i, this.namespace.name()).execute();
			core.replaceNamespacedConfigMap("object-" + i, this.namespace.name(), current.data(Map.of("v", "3")))
				.execute();
		}
		await().atMost(TIMEOUT)
			.until(() -> this.reconciles.subList(afterLeave, this.reconciles.size())
				.stream()
				.filter((reconcile) -> reconcile.replica().equals("a"))
				.map(Reconcile::key)
				.collect(Collectors.toSet())
				.size() == OBJECTS);
		assertNoOverlap();
	}

	@Test
	void aChangedOwnedObjectIsReconciledByTheReplicaHoldingItsOwnersPartition() throws Exception {
		ControllerManager a = start("a");
		ControllerManager b = start("b");
		Assignment split = Assignment.compute(List.of("a", "b"), PARTITIONS);
		await().atMost(TIMEOUT)
			.until(() -> a.shardCoordinator().table().held().size()
					+ b.shardCoordinator().table().held().size() == PARTITIONS
					&& b.shardCoordinator().members().size() == 2 && a.shardCoordinator().members().size() == 2);
		CoreV1Api core = new CoreV1Api(this.client);
		V1ConfigMap owner = core.createNamespacedConfigMap(this.namespace.name(), configMap("owner")).execute();
		String expected = split.ownerOf(this.partitioner.partitionOf(new Request(this.namespace.name(), "owner")));
		await().atMost(TIMEOUT).until(() -> reconciledKeys(expected).contains(this.namespace.name() + "/owner"));
		int before = this.reconciles.size();
		V1Secret secret = new V1Secret().metadata(new V1ObjectMeta().name("owned")
			.ownerReferences(List.of(new V1OwnerReference().apiVersion("v1")
				.kind("ConfigMap")
				.name("owner")
				.uid(owner.getMetadata().getUid())
				.controller(true))));
		core.createNamespacedSecret(this.namespace.name(), secret).execute();
		await().atMost(TIMEOUT).until(() -> this.reconciles.size() > before);
		assertThat(this.reconciles.subList(before, this.reconciles.size()))
			.allSatisfy((reconcile) -> assertThat(reconcile.replica()).isEqualTo(expected));
		assertNoOverlap();
	}

	@Test
	void aReconcileTimeoutThatOutlastsTheLeaseIsRejected() {
		ShardingSettings settings = settings("a");
		ManagerBuilder builder = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("slow")
				.namespaces(this.namespace.name())
				.reconcileTimeout(Duration.ofSeconds(1))
				.reconcile((request) -> Result.done()))
			.sharding(settings, false);
		assertThatIllegalArgumentException().isThrownBy(builder::build)
			.withMessageContaining("'slow'")
			.withMessageContaining("lease duration (PT4S) minus the renew deadline (PT3S)");
	}

	private void assertNoOverlap() {
		Map<String, List<Reconcile>> byKey = this.reconciles.stream().collect(Collectors.groupingBy(Reconcile::key));
		byKey.forEach((key, list) -> {
			for (Reconcile one : list) {
				for (Reconcile other : list) {
					if (!one.replica().equals(other.replica())) {
						assertThat(one.end() <= other.start() || other.end() <= one.start())
							.as("%s reconciled by %s and %s at once", key, one.replica(), other.replica())
							.isTrue();
					}
				}
			}
		});
	}

	private Set<String> keysOwnedBy(Assignment assignment, String replica) {
		Set<String> keys = new java.util.TreeSet<>();
		for (int i = 0; i < OBJECTS; i++) {
			Request key = new Request(this.namespace.name(), "object-" + i);
			if (replica.equals(assignment.ownerOf(this.partitioner.partitionOf(key)))) {
				keys.add(key.key());
			}
		}
		return keys;
	}

	private Set<String> reconciledKeys(String replica) {
		return this.reconciles.stream()
			.filter((reconcile) -> reconcile.replica().equals(replica))
			.map(Reconcile::key)
			.collect(Collectors.toSet());
	}

	private ControllerManager start(String identity) {
		ControllerManager manager = ControllerManager.builder(this.replicaClient.client())
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("sharded")
				.namespaces(this.namespace.name())
				.owns(V1Secret.class)
				.reconcileTimeout(Duration.ofMillis(800))
				.reconcile((request) -> {
					long start = System.nanoTime();
					this.reconciles.add(new Reconcile(identity, request.key(), start, System.nanoTime()));
					return Result.done();
				}))
			.sharding(settings(identity), false)
			.build();
		this.managers.add(manager);
		manager.start();
		return manager;
	}

	private ShardingSettings settings(String identity) {
		return new ShardingSettings(this.group, this.namespace.name(), identity, PARTITIONS,
				new LeaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(200)));
	}

	private static V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", "1"));
	}

	private record Reconcile(String replica, String key, long start, long end) {
	}

}
