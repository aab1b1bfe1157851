package dev.kubereconciler.leaderelection;

import java.io.StringReader;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.fault.FaultProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas with leader election, each reaching the API server through a fault proxy
 * of its own: a leader cut off from the API server steps down within its renew deadline,
 * the other replica leads within the lease duration after that, no key is reconciled by
 * both at once, and the old leader rejoins as a follower when the network heals.
 */
@KubernetesTest
class PartitionedLeaderTests {

	private static final Duration LEASE_DURATION = Duration.ofSeconds(4);

	private static final Duration RENEW_DEADLINE = Duration.ofSeconds(3);

	private static final Duration RETRY_PERIOD = Duration.ofMillis(500);

	private static final LeaseTiming TIMING = new LeaseTiming(LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD);

	private static final int KEYS = 8;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

	private final List<Reconcile> reconciles = new CopyOnWriteArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.closing.size() - 1; i >= 0; i--) {
			this.closing.get(i).close();
		}
	}

	@Test
	void aPartitionedLeaderStepsDownAndAnotherLeadsWithNoKeyReconciledByBoth() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		for (int i = 0; i < KEYS; i++) {
			core.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("cm-" + i)).putDataItem("n", "0"))
				.execute();
		}
		FaultProxy firstProxy = proxy();
		ControllerManager first = replica("first", firstProxy);
		await().atMost(Duration.ofSeconds(30)).until(first::isLeader);
		ControllerManager second = replica("second", proxy());
		await().atMost(Duration.ofSeconds(30)).until(second::hasSynced);
		churn(core);
		await().atMost(Duration.ofSeconds(30)).until(() -> reconciledBy("first") > KEYS);
		assertThat(second.isLeader()).isFalse();
		long partitioned = System.nanoTime();
		firstProxy.blackHole(Duration.ofMinutes(5));
		await().atMost(RENEW_DEADLINE.plus(RETRY_PERIOD).plusSeconds(5)).until(() -> !first.isLeader());
		long steppedDown = System.nanoTime();
		await().atMost(LEASE_DURATION.plusSeconds(5)).until(second::isLeader);
		long tookOver = System.nanoTime();
		await().atMost(Duration.ofSeconds(30)).until(() -> reconciledBy("second") > KEYS);
		firstProxy.heal();
		// the old leader's held requests reach the server now; it stays a follower
		await().during(LEASE_DURATION)
			.atMost(LEASE_DURATION.plusSeconds(5))
			.until(() -> !first.isLeader() && second.isLeader());
		// a client-go leader stops renewing at its renew deadline, counted from its last
		// renewal, which was at most a retry period before the partition; a second for a
		// loaded machine's scheduling
		assertThat(Duration.ofNanos(steppedDown - partitioned))
			.isLessThanOrEqualTo(RENEW_DEADLINE.plus(RETRY_PERIOD).plusSeconds(1));
		assertThat(Duration.ofNanos(tookOver - steppedDown)).isLessThanOrEqualTo(LEASE_DURATION);
		List<Reconcile> byFirst = this.reconciles.stream().filter((r) -> r.replica().equals("first")).toList();
		List<Reconcile> bySecond = this.reconciles.stream().filter((r) -> r.replica().equals("second")).toList();
		long firstLastEnd = byFirst.stream().mapToLong(Reconcile::ended).max().orElseThrow();
		long secondFirstStart = bySecond.stream().mapToLong(Reconcile::started).min().orElseThrow();
		assertThat(byFirst).allSatisfy((reconcile) -> assertThat(reconcile.started()).isLessThan(steppedDown));
		assertThat(secondFirstStart).as("the new leader's first reconcile starts after the old leader's last ends")
			.isGreaterThan(firstLastEnd);
		// healed, the old leader is a candidate again: it leads once the other goes
		second.stop();
		await().atMost(LEASE_DURATION.plusSeconds(5)).until(first::isLeader);
	}

	@Test
	void leaderElectionRecoversAfterTheApiServerWasGoneForLongerThanTheLease() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		ControllerManager manager = replica("only", proxy());
		await().atMost(Duration.ofSeconds(30)).until(manager::isLeader);
		create(core, "before");
		await().atMost(Duration.ofSeconds(30)).until(() -> reconciled("only", "before"));
		this.server.stopApiServer();
		try {
			await().atMost(RENEW_DEADLINE.plus(RETRY_PERIOD).plusSeconds(5)).until(() -> !manager.isLeader());
			// no Lease can be renewed or taken while the API server is gone, for longer
			// than the Lease lasts
			await().during(LEASE_DURATION).atMost(LEASE_DURATION.plusSeconds(5)).until(() -> !manager.isLeader());
		}
		finally {
			this.server.startApiServer();
		}
		await().atMost(LEASE_DURATION.plus(RETRY_PERIOD.multipliedBy(3)).plusSeconds(5)).until(manager::isLeader);
		create(core, "after");
		await().atMost(Duration.ofSeconds(30)).until(() -> reconciled("only", "after"));
	}

	private void create(CoreV1Api core, String name) throws ApiException {
		core.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
	}

	private boolean reconciled(String replica, String key) {
		return this.reconciles.stream()
			.anyMatch((reconcile) -> reconcile.replica().equals(replica) && reconcile.key().equals(key));
	}

	private long reconciledBy(String replica) {
		return this.reconciles.stream().filter((reconcile) -> reconcile.replica().equals(replica)).count();
	}

	/**
	 * Change one ConfigMap every 50 ms, directly on the API server, so that the leader
	 * always has work.
	 */
	private void churn(CoreV1Api core) {
		ScheduledExecutorService churn = Executors.newSingleThreadScheduledExecutor();
		this.closing.add(churn::shutdownNow);
		AtomicInteger change = new AtomicInteger();
		churn.scheduleWithFixedDelay(() -> {
			int n = change.incrementAndGet();
			try {
				core.patchNamespacedConfigMap("cm-" + (n % KEYS), this.namespace.name(),
						new V1Patch("{\"data\":{\"n\":\"" + n + "\"}}"))
					.execute();
			}
			catch (ApiException ex) {
				// the next change comes soon
			}
		}, 0, 50, TimeUnit.MILLISECONDS);
	}

	private FaultProxy proxy() {
		FaultProxy proxy = FaultProxy.start(this.server.url());
		this.closing.add(proxy);
		return proxy;
	}

	/**
	 * A replica whose reconciler writes, through its own proxy, which replica saw which
	 * change last.
	 */
	private ControllerManager replica(String name, FaultProxy proxy) throws Exception {
		ApiClient client = ClientBuilder
			.kubeconfig(KubeConfig
				.loadKubeConfig(new StringReader(proxy.kubeconfig(Files.readString(this.server.kubeconfig())))))
			.build();
		CoreV1Api core = new CoreV1Api(client);
		String namespace = this.namespace.name();
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("partitioned")
			.namespaces(namespace)
			.reconcile((request) -> {
				long started = System.nanoTime();
				try {
					core.patchNamespacedConfigMap(request.name(), namespace,
							new V1Patch("{\"metadata\":{\"annotations\":{\"reconciled-by\":\"" + name + "\"}}}"))
						.execute();
				}
				finally {
					this.reconciles.add(new Reconcile(name, request.name(), started, System.nanoTime()));
				}
				return Result.done();
			});
		ControllerManager manager = ControllerManager.builder(client)
			.controller(definition)
			.leaderElection(new LeaderElectionSettings("partitioned", namespace, name, TIMING))
			.shutdownTimeout(Duration.ofSeconds(2))
			.build();
		manager.start();
		this.closing.add(manager::stop);
		return manager;
	}

	private record Reconcile(String replica, String key, long started, long ended) {
	}

}
