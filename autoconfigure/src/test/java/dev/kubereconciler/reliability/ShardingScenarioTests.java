package dev.kubereconciler.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 8: sharding across replicas in separate JVMs. One replica reconciles
 * everything; two more join and the 32 partitions rebalance; a round of updates is
 * shared; one replica is killed (SIGKILL) during a round of updates and its partitions
 * are taken over after Lease expiry; another leaves gracefully and the last one takes
 * everything. Over the whole run no key is reconciled by two replicas at once.
 *
 * <p>
 * Opt-in ({@code -Dkube-reconciler.reliability.sharding=true}): it starts three JVMs,
 * which on a loaded 2-core machine take about a minute each, too much for every CI run.
 */
@KubernetesTest
@EnabledIfSystemProperty(named = "kube-reconciler.reliability.sharding", matches = "true")
class ShardingScenarioTests {

	private static final int PARTITIONS = 32;

	private static final int OBJECTS = Reliability.scaled(1000);

	private static final Duration CONVERGE_LIMIT = Duration.ofSeconds(90);

	// kept when the test fails, for the replicas' logs
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path folder;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	private final Map<String, Process> replicas = new LinkedHashMap<>();

	@AfterEach
	void stop() {
		this.replicas.values().forEach(Process::destroyForcibly);
	}

	@Test
	void replicasShareTheKeysWithoutOverlapThroughJoinsAKillAndALeave() throws Exception {
		Path journal = this.folder.resolve("journal");
		CoreV1Api core = new CoreV1Api(this.client);
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("objects; partitions; lease duration; renew deadline; retry period",
				OBJECTS + "; " + PARTITIONS + "; 10 s; 6 s; 1 s");
		start("r1", journal);
		await().atMost(CONVERGE_LIMIT).until(() -> holders().getOrDefault(identity(journal, "r1"), 0) == PARTITIONS);
		write(core, "v1");
		await().atMost(CONVERGE_LIMIT).until(() -> reconciledNames(journal, "r1", 0).size() == OBJECTS);

		long joined = System.nanoTime();
		start("r2", journal);
		start("r3", journal);
		await().atMost(CONVERGE_LIMIT).until(() -> balanced(holders(), 3));
		figures.put("rebalance 1 → 3: until every replica held 10 or 11 partitions",
				seconds(System.nanoTime() - joined));
		figures.put("partitions held after 1 → 3", new TreeMap<>(byReplica(journal, holders())));

		long shared = System.nanoTime();
		write(core, "v2");
		await().atMost(CONVERGE_LIMIT).until(() -> reconciledSince(journal, shared).size() == OBJECTS);
		Map<String, Long> share = new TreeMap<>();
		for (Fact fact : facts(journal, null, "start")) {
			if (fact.nanos() >= shared) {
				share.merge(fact.replica(), 1L, Long::sum);
			}
		}
		double fair = OBJECTS / 3.0;
		figures.put("reconciles of one round of updates, by replica (fair " + Math.round(fair) + ")", share);
		assertThat(share).hasSize(3);
		assertThat(share.values())
			.allSatisfy((count) -> assertThat((double) count).isBetween(fair * 0.75, fair * 1.25));

		long killedAt = System.nanoTime();
		Thread writer = new Thread(() -> {
			try {
				write(core, "v3");
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		writer.start();
		this.replicas.get("r3").destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		writer.join();
		String r3 = identity(journal, "r3");
		await().atMost(CONVERGE_LIMIT).until(() -> !holders().containsKey(r3) && balanced(holders(), 2));
		figures.put("SIGKILL of r3 during a round of updates: until r1 and r2 held all 32",
				seconds(System.nanoTime() - killedAt));
		// every object written after the kill is reconciled by a survivor after its write
		await().atMost(CONVERGE_LIMIT).until(() -> reconciledSince(journal, killedAt).size() == OBJECTS);

		long left = System.nanoTime();
		Process r2 = this.replicas.get("r2");
		r2.destroy();
		assertThat(r2.waitFor(30, TimeUnit.SECONDS)).isTrue();
		String r1 = identity(journal, "r1");
		await().atMost(CONVERGE_LIMIT).until(() -> holders().getOrDefault(r1, 0) == PARTITIONS);
		figures.put("graceful leave of r2 (SIGTERM): until r1 held all 32", seconds(System.nanoTime() - left));
		long last = System.nanoTime();
		write(core, "v4");
		await().atMost(CONVERGE_LIMIT).until(() -> reconciledNames(journal, "r1", last).size() == OBJECTS);

		List<String> overlaps = overlaps(facts(journal, null, null));
		figures.put("reconciles in the journal", facts(journal, null, "end").size());
		figures.put("keys reconciled by two replicas at once", overlaps.size());
		assertThat(overlaps).isEmpty();
		Reliability.report("8-sharding", "8. Sharding across replicas", figures);
	}

	private void start(String replica, Path journal) throws IOException {
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-cp", System.getProperty("java.class.path"), ShardReplica.class.getName(),
				this.server.kubeconfig().toString(), this.namespace.name(), journal.toString(), replica)
			.redirectErrorStream(true)
			.redirectOutput(this.folder.resolve(replica + ".log").toFile())
			.start();
		this.replicas.put(replica, process);
		await().atMost(Duration.ofMinutes(3)).until(() -> identity(journal, replica) != null);
	}

	private void write(CoreV1Api core, String version) throws Exception {
		List<Reliability.ThrowingRunnable> tasks = new ArrayList<>();
		for (int i = 0; i < OBJECTS; i++) {
			String name = "object-" + i;
			tasks.add(() -> {
				V1ConfigMap body = new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", version));
				if (version.equals("v1")) {
					core.createNamespacedConfigMap(this.namespace.name(), body).execute();
				}
				else {
					core.replaceNamespacedConfigMap(name, this.namespace.name(), body).execute();
				}
			});
		}
		Reliability.inParallel(8, tasks);
	}

	private Map<String, Integer> holders() throws Exception {
		Map<String, Integer> holders = new HashMap<>();
		for (V1Lease lease : new CoordinationV1Api(this.client).listNamespacedLease(this.namespace.name())
			.execute()
			.getItems()) {
			String holder = lease.getSpec().getHolderIdentity();
			if (lease.getMetadata().getName().startsWith("scenario-partition-") && holder != null) {
				holders.merge(holder, 1, Integer::sum);
			}
		}
		return holders;
	}

	private static boolean balanced(Map<String, Integer> holders, int replicas) {
		int floor = PARTITIONS / replicas;
		return holders.size() == replicas && holders.values().stream().mapToInt(Integer::intValue).sum() == PARTITIONS
				&& holders.values().stream().allMatch((count) -> count == floor || count == floor + 1);
	}

	private static Map<String, Integer> byReplica(Path journal, Map<String, Integer> holders) throws IOException {
		Map<String, Integer> named = new HashMap<>();
		for (Fact fact : facts(journal, null, "identity")) {
			named.put(fact.replica(), holders.getOrDefault(fact.name(), 0));
		}
		return named;
	}

	private static String identity(Path journal, String replica) throws IOException {
		List<Fact> facts = facts(journal, replica, "identity");
		return facts.isEmpty() ? null : facts.get(0).name();
	}

	private static Set<String> reconciledNames(Path journal, String replica, long since) throws IOException {
		return facts(journal, replica, "end").stream()
			.filter((fact) -> fact.nanos() >= since)
			.map(Fact::name)
			.collect(Collectors.toSet());
	}

	private static Set<String> reconciledSince(Path journal, long since) throws IOException {
		return facts(journal, null, "end").stream()
			.filter((fact) -> fact.nanos() >= since)
			.map(Fact::name)
			.collect(Collectors.toSet());
	}

	/**
	 * Pair every start with the next end of the same replica and key, and find keys whose
	 * intervals on two different replicas intersect.
	 */
	static List<String> overlaps(List<Fact> facts) {
		Map<String, List<long[]>> intervals = new HashMap<>();
		Map<String, List<String>> owners = new HashMap<>();
		Map<String, Long> open = new HashMap<>();
		for (Fact fact : facts) {
			String id = fact.replica() + " " + fact.name();
			if (fact.fact().equals("start")) {
				open.put(id, fact.nanos());
			}
			else if (fact.fact().equals("end") && open.containsKey(id)) {
				intervals.computeIfAbsent(fact.name(), (key) -> new ArrayList<>())
					.add(new long[] { open.remove(id), fact.nanos() });
				owners.computeIfAbsent(fact.name(), (key) -> new ArrayList<>()).add(fact.replica());
			}
		}
		// a start without an end (a killed replica's last reconcile) runs until the end
		// of the journal
		open.forEach((id, start) -> {
			String[] parts = id.split(" ", 2);
			intervals.computeIfAbsent(parts[1], (key) -> new ArrayList<>()).add(new long[] { start, Long.MAX_VALUE });
			owners.computeIfAbsent(parts[1], (key) -> new ArrayList<>()).add(parts[0]);
		});
		List<String> overlapping = new ArrayList<>();
		intervals.forEach((name, list) -> {
			List<String> who = owners.get(name);
			for (int i = 0; i < list.size(); i++) {
				for (int j = i + 1; j < list.size(); j++) {
					if (!who.get(i).equals(who.get(j)) && list.get(i)[0] < list.get(j)[1]
							&& list.get(j)[0] < list.get(i)[1]) {
						overlapping.add(name);
					}
				}
			}
		});
		return overlapping;
	}

	private static String seconds(long nanos) {
		return String.format("%.2f s", nanos / 1e9);
	}

	private static List<Fact> facts(Path journal, String replica, String fact) throws IOException {
		List<Fact> facts = new ArrayList<>();
		if (!Files.exists(journal)) {
			return facts;
		}
		for (String line : Files.readAllLines(journal)) {
			String[] parts = line.split(" ");
			if (parts.length == 4 && (replica == null || parts[0].equals(replica))
					&& (fact == null || parts[1].equals(fact))) {
				facts.add(new Fact(parts[0], parts[1], parts[2], Long.parseLong(parts[3])));
			}
		}
		return facts;
	}

	record Fact(String replica, String fact, String name, long nanos) {
	}

}
