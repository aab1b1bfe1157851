package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 10: the leader of thousands of ConfigMaps is killed (SIGKILL, so it cannot
 * give up its Lease), some of them change, and the follower takes over, once as a warm
 * standby ({@code kube-reconciler.leader-election.warmup=true}, the default) and once as
 * a cold one. The warm follower has its cache synced before it leads; the cold one has
 * not even started its informers, lists once it wins the Lease, and starts its workers
 * only after that list. Either way, the new leader reconciles every changed object. The
 * figures time the takeover from the kill: until the Lease is won, until the workers
 * start, and until the changed objects are reconciled.
 */
@KubernetesTest
class WarmStandbyTakeoverTests {

	/**
	 * The number of ConfigMaps; CI creates {@value #DEFAULT_OBJECTS}, so that the
	 * scenario stays within about a minute on a quiet machine (5,000 took two minutes on
	 * the loaded machine of its first run, half of it creating them).
	 * {@code docs/reliability.md} gives the figures of a run with 5,000.
	 */
	static final String OBJECTS_PROPERTY = "kube-reconciler.reliability.warm-standby.objects";

	static final int DEFAULT_OBJECTS = 2_000;

	static final Duration LEASE_DURATION = Duration.ofSeconds(4);

	static final Duration RETRY_PERIOD = Duration.ofMillis(500);

	private static final int OBJECTS = Reliability.scaled(Integer.getInteger(OBJECTS_PROPERTY, DEFAULT_OBJECTS));

	private static final int CHANGED = Math.min(20, OBJECTS);

	// a child JVM on a loaded 2-core machine has taken a minute to start
	private static final Duration START_LIMIT = Duration.ofMinutes(3);

	private static final Duration LIMIT = Duration.ofMinutes(2);

	@TempDir
	Path folder;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private Process leader;

	private ConfigurableApplicationContext follower;

	@AfterEach
	void stop() {
		if (this.leader != null) {
			this.leader.destroyForcibly();
		}
		if (this.follower != null) {
			this.follower.close();
		}
	}

	@Test
	void theNewLeaderReconcilesEveryChangeAndOnlyTheWarmOneWasSyncedBeforeItLed() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		List<Reliability.ThrowingRunnable> writers = new ArrayList<>();
		for (int i = 0; i < OBJECTS; i++) {
			String name = name(i);
			writers
				.add(() -> core
					.createNamespacedConfigMap(this.namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", "0")))
					.execute());
		}
		long createStart = System.nanoTime();
		Reliability.inParallel(16, writers);
		long created = System.nanoTime() - createStart;
		Takeover warm = takeOver(core, true);
		Takeover cold = takeOver(core, false);

		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("ConfigMaps; changed after the kill", OBJECTS + "; " + CHANGED);
		figures.put("lease duration; renew deadline; retry period", "4 s; 3 s; 0.5 s");
		figures.put("creating them, 16 clients in parallel", seconds(created));
		figures.put("follower's cache before the kill: warm; cold", warm.cacheBefore() + "; " + cold.cacheBefore());
		figures.put("SIGKILL to Lease won (polled every 10 ms): warm; cold",
				seconds(warm.leaseWon()) + "; " + seconds(cold.leaseWon()));
		figures.put("SIGKILL to workers started: warm; cold",
				seconds(warm.workersStarted()) + "; " + seconds(cold.workersStarted()));
		figures.put("SIGKILL to first changed object reconciled: warm; cold",
				seconds(warm.firstChange()) + "; " + seconds(cold.firstChange()));
		figures.put("SIGKILL to every changed object reconciled: warm; cold",
				seconds(warm.lastChange()) + "; " + seconds(cold.lastChange()));
		// the Lease's expiry, and when the follower next tries, vary by a retry period;
		// what follows the win is what warmup changes
		figures.put("Lease won to workers started: warm; cold", seconds(warm.workersStarted() - warm.leaseWon()) + "; "
				+ seconds(cold.workersStarted() - cold.leaseWon()));
		figures.put("Lease won to every changed object reconciled: warm; cold",
				seconds(warm.lastChange() - warm.leaseWon()) + "; " + seconds(cold.lastChange() - cold.leaseWon()));
		Reliability.report("10-warm-standby", "10. Warm standby takeover", figures);

		assertThat(warm.cachesStarted()).as("warm follower's informers before it led").isTrue();
		assertThat(warm.synced()).as("warm follower's cache synced before it led").isTrue();
		assertThat(warm.cached()).as("objects in the warm follower's cache before it led").isEqualTo(OBJECTS);
		assertThat(cold.cachesStarted()).as("cold follower's informers before it led").isFalse();
		assertThat(cold.synced()).as("cold follower's cache synced before it led").isFalse();
		assertThat(cold.cached()).as("objects in the cold follower's cache before it led").isZero();
	}

	private Takeover takeOver(CoreV1Api core, boolean warmup) throws Exception {
		String mode = warmup ? "warm" : "cold";
		String lease = "standby-" + mode;
		ShardJournal journal = new ShardJournal(this.folder.resolve(mode + ".journal"));
		this.leader = ReplicaJvm.launch(StandbyCandidate.class, this.folder.resolve(mode + "-leader.log"),
				List.of(this.server.kubeconfig().toString(), this.namespace.name(), journal.file().toString(), "leader",
						lease, "true"));
		await().atMost(START_LIMIT).until(() -> journal.facts("leader", "leading").size() == 1);
		this.follower = StandbyCandidate.start(this.server.kubeconfig(), this.namespace.name(), journal.file(),
				"follower", lease, warmup);
		ControllerManager manager = this.follower.getBean(ManagedControllers.class).getManager();
		String identity = manager.leaderElection().identity();
		// long enough for the follower to have seen the leader's Lease, so that its
		// expiry counts from before the kill
		await().during(Duration.ofSeconds(1)).atMost(LIMIT).until(() -> !manager.isLeader());
		boolean cachesStarted = manager.cachesStarted();
		boolean synced = manager.hasSynced();
		int cached = manager.lister(V1ConfigMap.class).list().size();

		long killed = System.nanoTime();
		this.leader.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		List<String> changed = new ArrayList<>();
		for (int i = 0; i < CHANGED; i++) {
			String name = name(i * (OBJECTS / CHANGED));
			core.replaceNamespacedConfigMap(name, this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name))
						.data(Map.of("v", StandbyCandidate.changed(lease))))
				.execute();
			changed.add(name);
		}
		AtomicLong leaseWon = new AtomicLong();
		CoordinationV1Api coordination = new CoordinationV1Api(this.client);
		await().pollInterval(Duration.ofMillis(10)).atMost(LIMIT).until(() -> {
			if (identity.equals(holder(coordination, lease, this.namespace.name()))) {
				leaseWon.compareAndSet(0, System.nanoTime());
			}
			return leaseWon.get() != 0;
		});
		await().atMost(LIMIT)
			.until(() -> journal.facts("follower", "reconciled")
				.stream()
				.map(Fact::name)
				.distinct()
				.count() == CHANGED);
		List<Fact> reconciled = journal.facts("follower", "reconciled");
		assertThat(reconciled).extracting(Fact::name).containsAll(changed);
		assertThat(journal.facts("leader", "reconciled")).as("changes reconciled by the killed leader").isEmpty();
		long workersStarted = journal.facts("follower", "leading").get(0).nanos();
		long firstChange = reconciled.stream().mapToLong(Fact::nanos).min().orElseThrow();
		long lastChange = changed.stream()
			.mapToLong((name) -> reconciled.stream()
				.filter((fact) -> fact.name().equals(name))
				.mapToLong(Fact::nanos)
				.min()
				.orElseThrow())
			.max()
			.orElseThrow();
		this.follower.close();
		this.follower = null;
		this.leader = null;
		return new Takeover(cachesStarted, synced, cached, leaseWon.get() - killed, workersStarted - killed,
				firstChange - killed, lastChange - killed);
	}

	private static String holder(CoordinationV1Api coordination, String lease, String namespace) throws ApiException {
		V1Lease current = coordination.readNamespacedLease(lease, namespace).execute();
		return (current.getSpec() != null) ? current.getSpec().getHolderIdentity() : null;
	}

	private static String name(int index) {
		return "object-" + index;
	}

	private static String seconds(long nanos) {
		return String.format("%.2f s", nanos / 1e9);
	}

	/**
	 * One takeover: the follower's cache just before the kill, and the times from the
	 * kill, in nanoseconds.
	 */
	record Takeover(boolean cachesStarted, boolean synced, int cached, long leaseWon, long workersStarted,
			long firstChange, long lastChange) {

		String cacheBefore() {
			if (!this.cachesStarted) {
				return "not started, " + this.cached + " objects";
			}
			if (!this.synced) {
				return "syncing, " + this.cached + " objects";
			}
			return "synced, " + this.cached + " objects";
		}

	}

}
