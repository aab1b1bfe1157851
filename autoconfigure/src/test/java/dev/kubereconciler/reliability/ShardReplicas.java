package dev.kubereconciler.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@link ShardReplica} processes of a sharding scenario, each in its own JVM, and the
 * ConfigMaps they reconcile.
 */
final class ShardReplicas implements AutoCloseable {

	private static final Duration START_LIMIT = Duration.ofMinutes(3);

	private final KubernetesTestServer server;

	private final String namespace;

	private final Path folder;

	private final ShardJournal journal;

	private final List<String> properties;

	private final Map<String, Process> processes = new LinkedHashMap<>();

	/**
	 * Prepare replicas.
	 * @param server the API server
	 * @param namespace the namespace of the ConfigMaps and Leases
	 * @param folder where the journal and the replicas' logs go
	 * @param properties {@code --property=value} arguments for every replica
	 */
	ShardReplicas(KubernetesTestServer server, String namespace, Path folder, List<String> properties) {
		this.server = server;
		this.namespace = namespace;
		this.folder = folder;
		this.journal = new ShardJournal(folder.resolve("journal"));
		this.properties = properties;
	}

	ShardJournal journal() {
		return this.journal;
	}

	/**
	 * Start replicas at once and wait until each has started its controllers.
	 * @param replicas the replicas' names
	 */
	void start(String... replicas) throws IOException {
		for (String replica : replicas) {
			List<String> args = new ArrayList<>(List.of(this.server.kubeconfig().toString(), this.namespace,
					this.journal.file().toString(), replica));
			args.addAll(this.properties);
			Process process = ReplicaJvm.launch(ShardReplica.class, this.folder.resolve(replica + ".log"), args);
			this.processes.put(replica, process);
		}
		for (String replica : replicas) {
			await().atMost(START_LIMIT).until(() -> this.journal.identity(replica) != null);
		}
	}

	/**
	 * SIGKILL a replica and wait until it is gone.
	 * @param replica the replica
	 * @return when it was dead for sure ({@link System#nanoTime()})
	 */
	long kill(String replica) throws InterruptedException {
		assertThat(this.processes.get(replica).destroyForcibly().waitFor(10, TimeUnit.SECONDS)).isTrue();
		return System.nanoTime();
	}

	/**
	 * SIGTERM a replica, which leaves gracefully, and wait until it is gone.
	 * @param replica the replica
	 */
	void leave(String replica) throws InterruptedException {
		Process process = this.processes.get(replica);
		process.destroy();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
	}

	/**
	 * Send a signal with {@code kill}, such as {@code STOP} or {@code CONT}.
	 * @param replica the replica
	 * @param signal the signal's name
	 */
	void signal(String replica, String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(this.processes.get(replica).pid()))
			.inheritIO()
			.start();
		assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(kill.exitValue()).isZero();
	}

	/**
	 * Create or replace ConfigMaps {@code object-0} to {@code object-<count - 1>}, with 8
	 * clients in parallel.
	 * @param client the API client
	 * @param count how many
	 * @param version the value of their {@code v} entry; {@code v1} creates them
	 * @return when the write of each was sent, by name ({@link System#nanoTime()})
	 */
	Map<String, Long> write(ApiClient client, int count, String version) throws Exception {
		return write(client, count, version, 8);
	}

	/**
	 * Create or replace ConfigMaps {@code object-0} to {@code object-<count - 1>}.
	 * @param client the API client
	 * @param count how many
	 * @param version the value of their {@code v} entry; {@code v1} creates them
	 * @param threads how many clients write in parallel
	 * @return when the write of each was sent, by name ({@link System#nanoTime()})
	 */
	Map<String, Long> write(ApiClient client, int count, String version, int threads) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		Map<String, Long> sent = new ConcurrentHashMap<>();
		List<Reliability.ThrowingRunnable> tasks = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String name = "object-" + i;
			tasks.add(() -> {
				V1ConfigMap body = new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", version));
				sent.put(name, System.nanoTime());
				if (version.equals("v1")) {
					core.createNamespacedConfigMap(this.namespace, body).execute();
				}
				else {
					core.replaceNamespacedConfigMap(name, this.namespace, body).execute();
				}
			});
		}
		Reliability.inParallel(threads, tasks);
		return sent;
	}

	@Override
	public void close() {
		this.processes.values().forEach(Process::destroyForcibly);
	}

}
