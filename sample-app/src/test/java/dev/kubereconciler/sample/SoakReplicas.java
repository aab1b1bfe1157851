package dev.kubereconciler.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.deploy.DeployedApplication;
import dev.kubereconciler.test.deploy.Replica;
import dev.kubereconciler.test.fault.FaultProxy;

/**
 * The soak's replicas of the sample, each reaching the API server through a
 * {@link FaultProxy} of its own, and what the harness reads from each: its Prometheus
 * endpoint, its process in {@code /proc}, its log.
 */
final class SoakReplicas implements AutoCloseable {

	private final Map<String, FaultProxy> proxies = new ConcurrentHashMap<>();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final KubernetesTestServer server;

	private @Nullable DeployedApplication deployed;

	SoakReplicas(KubernetesTestServer server) {
		this.server = server;
	}

	DeployedApplication start(DeployedApplication.Builder builder) {
		// each pod's kubeconfig names its own proxy, so a fault can hit one replica
		this.deployed = builder
			.kubeconfig((pod, kubeconfig) -> this.proxies
				.computeIfAbsent(pod, (name) -> FaultProxy.start(this.server.url()))
				.kubeconfig(kubeconfig))
			.start();
		return this.deployed;
	}

	List<Replica> replicas() {
		DeployedApplication application = this.deployed;
		return (application != null) ? application.replicas() : List.of();
	}

	FaultProxy proxy(Replica replica) {
		FaultProxy proxy = this.proxies.get(replica.podName());
		if (proxy == null) {
			throw new IllegalStateException("No proxy for " + replica);
		}
		return proxy;
	}

	List<FaultProxy> proxies() {
		return replicas().stream().map(this::proxy).toList();
	}

	String name(Replica replica) {
		return "r" + (replicas().indexOf(replica) + 1);
	}

	/**
	 * Return the replica's metrics in Prometheus' text format, or {@code null} when it
	 * does not answer (stopped, restarting, or frozen).
	 */
	@Nullable Map<String, Double> scrape(Replica replica) {
		String text = get(replica, "/actuator/prometheus");
		return (text != null) ? PrometheusText.sums(text) : null;
	}

	/**
	 * Tell whether the replica says it leads: {@code null} when it does not answer.
	 */
	@Nullable Boolean leads(Replica replica) {
		Map<String, Double> metrics = scrape(replica);
		if (metrics == null) {
			return null;
		}
		return metrics.getOrDefault("leader_election_master_status", 0.0) > 0;
	}

	/**
	 * Run a full garbage collection in the replica, so that its heap reads as after GC.
	 */
	void collectGarbage(Replica replica) {
		try {
			Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
					Long.toString(replica.pid()), "GC.run")
				.redirectErrorStream(true)
				.start();
			jcmd.getInputStream().readAllBytes();
			if (!jcmd.waitFor(30, TimeUnit.SECONDS)) {
				jcmd.destroyForcibly();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// not running: nothing to collect
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Return the replica's threads, from {@code /proc}, or -1 if it does not run. */
	static long threads(Replica replica) {
		try {
			return Files.readAllLines(Path.of("/proc", Long.toString(replica.pid()), "status"))
				.stream()
				.filter((line) -> line.startsWith("Threads:"))
				.mapToLong((line) -> Long.parseLong(line.substring("Threads:".length()).trim()))
				.findFirst()
				.orElse(-1);
		}
		catch (IOException | IllegalStateException ex) {
			return -1;
		}
	}

	/** Return the replica's open file descriptors, from {@code /proc}, or -1. */
	static long openFiles(Replica replica) {
		try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(replica.pid()), "fd"))) {
			return fds.count();
		}
		catch (IOException | IllegalStateException ex) {
			return -1;
		}
	}

	/**
	 * Return how often the replica's informers listed, across restarts: client-java's
	 * reflector logs each list before it watches.
	 */
	static long lists(Replica replica) {
		try (Stream<String> lines = Files.lines(replica.logFile(), StandardCharsets.UTF_8)) {
			return lines.filter((line) -> line.contains("#Start listing and watching")).count();
		}
		catch (IOException | java.io.UncheckedIOException ex) {
			return 0;
		}
	}

	/**
	 * Return when the replica logged that it lost leadership, the first time after the
	 * given instant: its own account, free of the harness's polling delay.
	 */
	static @Nullable Instant lostLeadership(Replica replica, Instant after) {
		try (Stream<String> lines = Files.lines(replica.logFile(), StandardCharsets.UTF_8)) {
			return lines.filter((line) -> line.contains("Lost leadership; stopping controllers"))
				.map((line) -> OffsetDateTime.parse(line.substring(0, line.indexOf(' '))).toInstant())
				.filter((at) -> at.isAfter(after))
				.findFirst()
				.orElse(null);
		}
		catch (IOException | java.io.UncheckedIOException | java.time.format.DateTimeParseException ex) {
			return null;
		}
	}

	private @Nullable String get(Replica replica, String path) {
		try {
			HttpResponse<String> response = this.http
				.send(HttpRequest.newBuilder(URI.create("http://" + replica.podIp() + ":8080" + path))
					.timeout(Duration.ofSeconds(3))
					.build(), HttpResponse.BodyHandlers.ofString());
			return (response.statusCode() == 200) ? response.body() : null;
		}
		catch (IOException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	@Override
	public void close() {
		DeployedApplication application = this.deployed;
		if (application != null) {
			application.close();
		}
		new ArrayList<>(this.proxies.values()).forEach(FaultProxy::close);
	}

	/**
	 * Sums of Prometheus samples by metric name, over every label set.
	 */
	static final class PrometheusText {

		private PrometheusText() {
		}

		static Map<String, Double> sums(String text) {
			Map<String, Double> sums = new java.util.HashMap<>();
			for (String line : text.split("\n")) {
				if (line.isEmpty() || line.startsWith("#")) {
					continue;
				}
				int brace = line.indexOf('{');
				int space = line.lastIndexOf(' ');
				if (space < 0) {
					continue;
				}
				String name = line.substring(0, (brace >= 0 && brace < space) ? brace : line.indexOf(' '));
				String key = name;
				if (name.equals("jvm_memory_used_bytes") && line.contains("area=\"heap\"")) {
					key = "heap";
				}
				try {
					sums.merge(key, Double.parseDouble(line.substring(space + 1)), Double::sum);
				}
				catch (NumberFormatException ex) {
					// a sample without a number, such as NaN spelled otherwise
				}
			}
			return sums;
		}

	}

}
