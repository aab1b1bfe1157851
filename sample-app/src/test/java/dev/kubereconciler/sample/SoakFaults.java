package dev.kubereconciler.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetStatus;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.deploy.Replica;
import dev.kubereconciler.test.fault.Direction;
import dev.kubereconciler.test.fault.FaultProxy;

/**
 * The faults the soak injects, one at a time, each with the bounds it must be recovered
 * within: the bound of every fault is that a change of the probe widget, written after
 * the fault ended, is reconciled within it; a partition and a kill add the leader's
 * hand-over.
 */
final class SoakFaults {

	static final List<String> KINDS = List.of("latency-spike", "reset-all", "partition-leader", "reset-watches",
			"etcd-compaction", "kill-replica", "apiserver-restart");

	static final String PROBE = "soak-probe";

	private static final Duration PROBE_BOUND = Duration.ofSeconds(20);

	private static final Pattern REVISION = Pattern.compile("\"revision\"\\s*:\\s*\"?(\\d+)");

	private final KubernetesTestServer server;

	private final SoakReplicas replicas;

	private final SoakLeaders leaders;

	private final GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets;

	private final SoakSettings settings;

	private final HttpClient http = HttpClient.newHttpClient();

	private int probeSize = 1;

	private int kills;

	SoakFaults(KubernetesTestServer server, SoakReplicas replicas, SoakLeaders leaders, SoakSettings settings) {
		this.server = server;
		this.replicas = replicas;
		this.leaders = leaders;
		this.widgets = TestObjects.widgets(server.apiClient());
		this.settings = settings;
	}

	void createProbe() {
		KubernetesApiResponse<Widget> created = this.widgets
			.create(TestObjects.widget(SoakChurn.NAMESPACE, PROBE, "blue", this.probeSize));
		if (!created.isSuccess()) {
			throw new IllegalStateException("The probe widget was refused: " + created.getStatus());
		}
	}

	SoakOutcome inject(String kind) {
		return switch (kind) {
			case "latency-spike" -> latencySpike();
			case "reset-all" -> reset(kind, (proxy) -> proxy.resetAll());
			case "reset-watches" -> reset(kind, (proxy) -> proxy.resetOlderThan(Duration.ofSeconds(5)));
			case "partition-leader" -> partitionLeader();
			case "etcd-compaction" -> etcdCompaction();
			case "kill-replica" -> killReplica();
			case "apiserver-restart" -> apiServerRestart();
			default -> throw new IllegalArgumentException("Unknown fault " + kind + "; one of " + KINDS);
		};
	}

	private SoakOutcome latencySpike() {
		Instant at = Instant.now();
		for (FaultProxy proxy : this.replicas.proxies()) {
			proxy.latency(Direction.TO_CLIENT, Duration.ofMillis(200), Duration.ofMillis(300));
			proxy.latency(Direction.TO_SERVER, Duration.ofMillis(100), Duration.ofMillis(100));
		}
		// reconciles go on, slower: a change is still reconciled during the spike
		SoakOutcome.Bound during = probe("a change reconciled during the spike", Duration.ofSeconds(30));
		SoakSettings.pause(this.settings.spike().minus(Duration.between(at, Instant.now())));
		this.replicas.proxies().forEach(FaultProxy::heal);
		return new SoakOutcome("latency-spike", at, "every replica",
				"200-500 ms to the client, 100-200 ms to the server, " + this.settings.spike().toSeconds() + " s",
				List.of(during, probe("a change reconciled after the spike", PROBE_BOUND)));
	}

	private SoakOutcome reset(String kind, java.util.function.ToIntFunction<FaultProxy> reset) {
		Instant at = Instant.now();
		int connections = this.replicas.proxies().stream().mapToInt(reset).sum();
		return new SoakOutcome(kind, at, "every replica", connections + " connections reset",
				List.of(probe("a change reconciled after the reset", PROBE_BOUND)));
	}

	private SoakOutcome partitionLeader() {
		Replica leader = this.leaders.awaitLeader(this.settings.leaseDuration().multipliedBy(3));
		Instant at = Instant.now();
		FaultProxy proxy = this.replicas.proxy(leader);
		proxy.blackHole(this.settings.leaseDuration().multipliedBy(3));
		List<SoakOutcome.Bound> bounds = new ArrayList<>();
		// client-go: the leader stops leading once it could not renew for the renew
		// deadline, counted from its last try that started in time, which may be up to
		// a retry period before the partition
		Duration renew = this.settings.renewDeadline().plus(this.settings.retryPeriod());
		Duration polled = SoakLeaders.timeUntil(() -> !this.leaders.leads(leader), at, renew.multipliedBy(3));
		// when the replica itself says it stopped; the poll of three metrics endpoints
		// on a loaded machine may see it a second or two later
		Instant logged = SoakReplicas.lostLeadership(leader, at);
		Duration stepDown = (logged != null) ? Duration.between(at, logged) : polled;
		bounds.add(new SoakOutcome.Bound("the partitioned leader steps down (by its log)", renew, stepDown));
		Instant steppedDown = (stepDown != null) ? at.plus(stepDown) : Instant.now();
		Duration takeOver = SoakLeaders.timeUntil(
				() -> this.leaders.leader().filter((other) -> other != leader).isPresent(), steppedDown,
				this.settings.leaseDuration().multipliedBy(3));
		bounds.add(new SoakOutcome.Bound("another replica leads, after the step-down", this.settings.leaseDuration(),
				takeOver));
		// the replicas share the external API, so the new leader inherits provisioned
		// widgets and a change goes before its initial list (the priority queue)
		bounds.add(probe("a change reconciled by the new leader during the partition", PROBE_BOUND));
		proxy.heal();
		bounds.add(probe("a change reconciled after the partition healed", PROBE_BOUND));
		return new SoakOutcome("partition-leader", at, this.replicas.name(leader),
				"black hole until another replica led", bounds);
	}

	private SoakOutcome etcdCompaction() {
		Replica leader = this.leaders.awaitLeader(this.settings.leaseDuration().multipliedBy(3));
		FaultProxy proxy = this.replicas.proxy(leader);
		long listsBefore = SoakReplicas.lists(leader);
		Instant at = Instant.now();
		// the leader's watches stay open at the resourceVersion they had, shorter than
		// the renew deadline so that it keeps the Lease, while the churn writes on
		proxy.blackHole(this.settings.renewDeadline().dividedBy(2));
		SoakSettings.pause(this.settings.renewDeadline().dividedBy(3));
		long revision = compact();
		proxy.resetAll();
		proxy.heal();
		List<SoakOutcome.Bound> bounds = List
			.of(probe("a change reconciled after the compaction", PROBE_BOUND.plus(this.settings.leaseDuration())));
		return new SoakOutcome("etcd-compaction", at, this.replicas.name(leader),
				"compacted at revision " + revision + " while its watches were held; it listed "
						+ (SoakReplicas.lists(leader) - listsBefore) + " times after",
				bounds);
	}

	private SoakOutcome killReplica() {
		Replica leader = this.leaders.awaitLeader(this.settings.leaseDuration().multipliedBy(3));
		// every other kill hits the leader; r1 is never killed, so that one JVM runs
		// the whole soak and shows what grows
		List<Replica> all = this.replicas.replicas();
		boolean killLeader = (this.kills++ % 2 == 0) && all.indexOf(leader) != 0;
		Replica victim = killLeader ? leader
				: all.stream()
					.filter((replica) -> replica != leader && all.indexOf(replica) != 0)
					.findFirst()
					.orElse(all.get(all.size() - 1));
		int restarts = victim.restartCount();
		Duration backOff = Duration.ofSeconds(10L << Math.min(restarts, 4));
		Instant at = Instant.now();
		SoakSettings.run("kill", "-KILL", Long.toString(victim.pid()));
		List<SoakOutcome.Bound> bounds = new ArrayList<>();
		if (victim == leader) {
			// as DeployedSampleTests: the lease plus two jittered retry periods, plus
			// starting the controllers
			Duration handOver = this.settings.leaseDuration()
				.plus(this.settings.retryPeriod().multipliedBy(24).dividedBy(10))
				.plusSeconds(5);
			bounds.add(new SoakOutcome.Bound("another replica leads", handOver,
					SoakLeaders.timeUntil(() -> this.leaders.leader().filter((other) -> other != victim).isPresent(),
							at, handOver.multipliedBy(2))));
		}
		bounds.add(probe("a change reconciled after the kill", PROBE_BOUND.plus(this.settings.leaseDuration())));
		// the back-off, then a JVM start of the sample, slow on a loaded machine
		Duration readyBound = backOff.plusSeconds(90);
		bounds.add(new SoakOutcome.Bound(
				"the kubelet restarted it and it is ready (back-off " + backOff.toSeconds() + " s)", readyBound,
				SoakLeaders.timeUntil(() -> victim.restartCount() > restarts && victim.isReady(), at,
						readyBound.plusSeconds(30))));
		return new SoakOutcome("kill-replica", at, this.replicas.name(victim) + (killLeader ? " (leader)" : ""),
				"SIGKILL", bounds);
	}

	private SoakOutcome apiServerRestart() {
		Instant at = Instant.now();
		this.server.killApiServer();
		SoakSettings.pause(Duration.ofSeconds(2));
		this.server.startApiServer();
		Duration down = Duration.between(at, Instant.now());
		return new SoakOutcome("apiserver-restart", at, "API server",
				"SIGKILL, down " + down.toMillis() / 100 / 10.0 + " s until /readyz",
				List.of(probe("a change reconciled after the restart", PROBE_BOUND.plusSeconds(10))));
	}

	// a change of the probe widget, reconciled when its status reflects its generation
	private SoakOutcome.Bound probe(String what, Duration bound) {
		Instant at = Instant.now();
		this.probeSize = (this.probeSize % 60) + 1;
		int size = this.probeSize;
		Duration took = SoakLeaders.timeUntil(() -> {
			KubernetesApiResponse<Widget> patched = this.widgets.patch(SoakChurn.NAMESPACE, PROBE,
					V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"size\":" + size + "}}"));
			if (!patched.isSuccess()) {
				return false;
			}
			Widget read = this.widgets.get(SoakChurn.NAMESPACE, PROBE).getObject();
			WidgetStatus status = read.getStatus();
			return status != null && WidgetStatus.READY.equals(status.phase())
					&& read.getMetadata().getGeneration().equals(status.observedGeneration())
					&& read.getSpec().size() == size;
		}, at, bound.multipliedBy(2));
		return new SoakOutcome.Bound(what, bound, took);
	}

	// etcd's JSON gateway: the current revision from a range read, then a compaction to
	// it
	private long compact() {
		String range = post("/v3/kv/range", "{\"key\":\"AA==\"}");
		Matcher matcher = REVISION.matcher(range);
		if (!matcher.find()) {
			throw new IllegalStateException("etcd answered no revision: " + range);
		}
		long revision = Long.parseLong(matcher.group(1));
		post("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
		return revision;
	}

	private String post(String path, String body) {
		try {
			HttpResponse<String> response = this.http
				.send(HttpRequest.newBuilder(URI.create(this.server.etcdUrl() + path))
					.POST(HttpRequest.BodyPublishers.ofString(body))
					.build(), HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException(
						"etcd " + path + " answered " + response.statusCode() + ": " + response.body());
			}
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException("etcd " + path + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
