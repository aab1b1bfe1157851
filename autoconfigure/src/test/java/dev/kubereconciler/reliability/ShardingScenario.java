package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.reliability.ShardJournal.Fact;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

/**
 * What the sharding scenarios (9, 9b and 9c) share: their replicas in child JVMs
 * ({@link ShardReplicas}) against the test API server, the journal the replicas write,
 * and the choice between the size every build runs and the full size.
 *
 * <p>
 * Every build runs each scenario at a reduced size (fewer objects, 16 partitions, a 6 s
 * lease, a 4 s renew deadline and a 1 s reconcile timeout, shorter measurements), so that
 * none is skipped; {@code -Dkube-reconciler.reliability.sharding=true} runs the sizes the
 * issue asks for (32 partitions, a 10 s lease, a 6 s renew deadline, a 3 s reconcile
 * timeout).
 */
@KubernetesTest
abstract class ShardingScenario {

	/**
	 * The system property that selects the full size.
	 */
	static final String FULL_PROPERTY = "kube-reconciler.reliability.sharding";

	static final boolean FULL = Boolean.getBoolean(FULL_PROPERTY);

	static final int PARTITIONS = FULL ? 32 : 16;

	static final Duration LEASE_DURATION = Duration.ofSeconds(FULL ? 10 : 6);

	static final Duration RENEW_DEADLINE = Duration.ofSeconds(FULL ? 6 : 4);

	static final Duration RECONCILE_TIMEOUT = Duration.ofSeconds(FULL ? 3 : 1);

	// kept when the test fails, for the replicas' logs
	@TempDir(cleanup = CleanupMode.ON_SUCCESS)
	Path folder;

	ApiClient client;

	TestNamespace namespace;

	KubernetesTestServer server;

	ShardReplicas replicas;

	@AfterEach
	void stopReplicas() {
		if (this.replicas != null) {
			this.replicas.close();
		}
	}

	/**
	 * Prepare the replicas, with the partitions and timings of the size;
	 * {@link ShardReplicas#start} starts them.
	 * @param properties more {@code --property=value} arguments for every replica
	 * @return the journal the replicas write
	 */
	ShardJournal prepare(String... properties) {
		List<String> all = new ArrayList<>(List.of("--kube-reconciler.sharding.partitions=" + PARTITIONS,
				"--kube-reconciler.sharding.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
				"--kube-reconciler.sharding.renew-deadline=" + RENEW_DEADLINE.toMillis() + "ms",
				"--kube-reconciler.defaults.reconcile-timeout=" + RECONCILE_TIMEOUT.toMillis() + "ms"));
		all.addAll(List.of(properties));
		this.replicas = new ShardReplicas(this.server, this.namespace.name(), this.folder, all);
		return this.replicas.journal();
	}

	/**
	 * Return a thread that creates or replaces the ConfigMaps
	 * ({@link ShardReplicas#write}) and records when it sent each.
	 * @param count how many
	 * @param version the value of their {@code v} entry; {@code v1} creates them
	 * @param sent where to put when the write of each was sent, by name
	 * @return the thread, not started
	 */
	Thread writer(int count, String version, Map<String, Long> sent) {
		return new Thread(() -> {
			try {
				sent.putAll(this.replicas.write(this.client, count, version));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/**
	 * Return when the last of some partitions was acquired after a time.
	 * @param journal the journal
	 * @param since the time
	 * @param partitions the partitions
	 * @return the time of the last {@code acquire}
	 */
	static long lastAcquired(ShardJournal journal, long since, Set<Integer> partitions) throws Exception {
		return journal.facts(null, "acquire")
			.stream()
			.filter((fact) -> fact.nanos() > since && partitions.contains(Integer.parseInt(fact.name())))
			.mapToLong(Fact::nanos)
			.max()
			.orElseThrow();
	}

	/**
	 * The name of a report's first row, whose value is {@link #size(int)}.
	 */
	static final String SIZE = "objects; partitions; lease duration; renew deadline; retry period; reconcile timeout";

	/**
	 * Return the size that produced a report's figures, for the row {@link #SIZE}.
	 * @param objects the number of objects
	 * @return the value
	 */
	static String size(int objects) {
		return objects + "; " + PARTITIONS + "; " + LEASE_DURATION.toSeconds() + " s; " + RENEW_DEADLINE.toSeconds()
				+ " s; " + ShardReplica.RETRY_PERIOD.toSeconds() + " s; " + RECONCILE_TIMEOUT.toSeconds() + " s";
	}

	/**
	 * Return a report's title, marked when the reduced size produced its figures.
	 * @param title the title
	 * @return the title to report
	 */
	static String title(String title) {
		return FULL ? title : title + " (CI size)";
	}

}
