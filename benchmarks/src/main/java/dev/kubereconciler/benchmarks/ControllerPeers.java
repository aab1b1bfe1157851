package dev.kubereconciler.benchmarks;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;

/**
 * Whole controllers side by side against a real API server: ours, Java Operator SDK and
 * client-java's {@code DefaultController}, one at a time in one JVM, each with 4 workers,
 * and the bare client's floor, listing in pages and from the watch cache.
 *
 * <ol>
 * <li>Cold start: N ConfigMaps with 1 KiB of data and the {@code managedFields} of two
 * server-side apply managers exist; the time from starting the controller until its cache
 * has synced, and until the last ConfigMap's first (no-op) reconcile.</li>
 * <li>Write-through: M ConfigMaps in a fresh namespace; each reconcile patches an
 * annotation to the resourceVersion it saw, once per ConfigMap; objects per second from
 * start until all are written, and the API errors seen.</li>
 * <li>Steady latency: in a fresh namespace, creates at a fixed rate; event-to-reconcile
 * p50, p99 and max, the event time read just before the create request is sent.</li>
 * </ol>
 * Cache memory is measured by {@link PeerMemory}, one JVM per figure.
 *
 * <p>
 * Usage:
 * {@code ControllerPeers KUBECONFIG [cold N] [write M] [rate R] [seconds S] [rounds K]},
 * by default 10,000, 5,000, 200/s, 60 s and 3 rounds (a size of 0 skips its workload).
 * Before the figures, every peer runs each workload once on a few hundred objects,
 * unreported, so that none is measured while its classes load.
 */
public final class ControllerPeers {

	static final int WORKERS = 4;

	private final ApiClient client;

	private final ConfigMaps configMaps;

	private final List<Peer> peers;

	private final String prefix = "peers-" + System.currentTimeMillis() + "-";

	private final List<String> namespaces = new ArrayList<>();

	ControllerPeers(Path kubeconfig) throws Exception {
		this.client = informerClient(kubeconfig);
		this.configMaps = new ConfigMaps(informerClient(kubeconfig));
		this.peers = List.of(new OursPeer(informerClient(kubeconfig)),
				new JosdkPeer(Fabric8Configs.fromKubeconfig(kubeconfig)),
				new ClientJavaPeer(informerClient(kubeconfig)), new BarePeer(informerClient(kubeconfig)),
				new BarePeer(informerClient(kubeconfig), true));
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("Usage: ControllerPeers KUBECONFIG [cold N] [write M] [rate R] [seconds S] [rounds K]");
			System.exit(2);
		}
		Settings settings = Settings.parse(Arrays.copyOfRange(args, 1, args.length));
		ControllerPeers peers = new ControllerPeers(Path.of(args[0]));
		try {
			peers.run(settings, Math.min(300, settings.cold()));
		}
		finally {
			peers.cleanUp();
		}
		// client-java and fabric8 leave non-daemon threads behind
		System.exit(0);
	}

	void run(Settings settings, int warmUp) throws Exception {
		System.out.printf("%s: peers with %d workers each; %s%n", Instant.now(), WORKERS, settings);
		if (warmUp > 0) {
			System.out.println("warm-up (not reported)");
			String warm = namespace("warm");
			this.configMaps.applyTwoManagers(warm, 0, warmUp);
			for (Peer peer : this.peers) {
				coldStart(peer, warm, warmUp);
				writeThrough(peer, warmUp);
			}
		}
		if (settings.cold() > 0) {
			System.out.println("== cold start");
			String cold = namespace("cold");
			this.configMaps.applyTwoManagers(cold, 0, settings.cold());
			Map<String, List<Double>> lasts = inRounds(settings, (peer) -> coldStart(peer, cold, settings.cold()));
			printMedians(settings, lasts, "cold start, last first reconcile", "ms");
		}
		if (settings.write() > 0) {
			System.out.println("== write-through");
			Map<String, List<Double>> rates = inRounds(settings, (peer) -> writeThrough(peer, settings.write()));
			printMedians(settings, rates, "write-through", "objects/s");
		}
		if (settings.rate() > 0 && settings.seconds() > 0) {
			System.out.println("== steady latency");
			Map<String, List<Double>> p99s = new LinkedHashMap<>();
			for (int round = 0; round < settings.rounds(); round++) {
				// each round starts with another peer, so that none always runs first
				for (int i = 0; i < this.peers.size(); i++) {
					Peer peer = this.peers.get((round + i) % this.peers.size());
					double p99 = steady(peer, settings.rate(), settings.seconds());
					p99s.computeIfAbsent(peer.name(), (name) -> new ArrayList<>()).add(p99);
				}
			}
			if (settings.rounds() > 1) {
				p99s.forEach((name, values) -> System.out.printf(Locale.ROOT,
						"%-30s steady p99, median of %d rounds %7.2f ms   rounds %s%n", name, values.size(),
						median(values), values));
			}
		}
	}

	/**
	 * Run a measurement of every peer once a round, each round starting with the next
	 * peer, so that none always runs first.
	 */
	private Map<String, List<Double>> inRounds(Settings settings, Measurement measurement) throws Exception {
		Map<String, List<Double>> figures = new LinkedHashMap<>();
		for (int round = 0; round < settings.rounds(); round++) {
			for (int i = 0; i < this.peers.size(); i++) {
				Peer peer = this.peers.get((round + i) % this.peers.size());
				figures.computeIfAbsent(peer.name(), (name) -> new ArrayList<>()).add(measurement.measure(peer));
			}
		}
		return figures;
	}

	private static void printMedians(Settings settings, Map<String, List<Double>> figures, String what, String unit) {
		if (settings.rounds() > 1) {
			figures.forEach((name, values) -> System.out.printf(Locale.ROOT,
					"%-30s %s, median of %d rounds %8.1f %s   rounds %s%n", name, what, values.size(), median(values),
					unit, values));
		}
	}

	/**
	 * One figure of one peer.
	 */
	@FunctionalInterface
	private interface Measurement {

		double measure(Peer peer) throws Exception;

	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

	private double coldStart(Peer peer, String namespace, int count) throws Exception {
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(count);
		System.gc();
		long start = System.nanoTime();
		Peer.Running running = peer.start(namespace, WORKERS, (name, resourceVersion, observed) -> {
			recorder.reconciled(name);
			return false;
		});
		long synced = System.nanoTime() - start;
		try {
			awaitAll(recorder, count);
			long last = 0;
			for (int i = 0; i < count; i++) {
				last = Math.max(last, recorder.firstReconcile(i) - start);
			}
			System.out.printf(Locale.ROOT, "%-30s cold start of %d: synced %8.0f ms   last first reconcile %8.0f ms%n",
					peer.name(), count, synced / 1e6, last / 1e6);
			return last / 1e6;
		}
		finally {
			running.stop();
		}
	}

	private double writeThrough(Peer peer, int count) throws Exception {
		String namespace = namespace("write");
		this.configMaps.create(namespace, count);
		EndToEndLatency.Recorder written = new EndToEndLatency.Recorder(count);
		AtomicInteger writes = new AtomicInteger();
		AtomicInteger errors = new AtomicInteger();
		System.gc();
		long start = System.nanoTime();
		Peer.Running running = peer.start(namespace, WORKERS, new Peer.Work() {

			@Override
			public boolean reconciled(String name, String resourceVersion, String observed) {
				return observed == null;
			}

			@Override
			public void written(String name) {
				writes.incrementAndGet();
				written.reconciled(name);
			}

			@Override
			public void failed(Exception ex) {
				errors.incrementAndGet();
			}

		});
		try {
			awaitAll(written, count);
			long last = 0;
			for (int i = 0; i < count; i++) {
				last = Math.max(last, written.firstReconcile(i) - start);
			}
			System.out.printf(Locale.ROOT,
					"%-30s write-through of %d: %8.1f objects/s   all written after %8.0f ms   %d patches, %d API errors%n",
					peer.name(), count, count / (last / 1e9), last / 1e6, writes.get(), errors.get());
			return count / (last / 1e9);
		}
		finally {
			running.stop();
			this.configMaps.deleteNamespace(namespace);
		}
	}

	private double steady(Peer peer, int rate, int seconds) throws Exception {
		String namespace = namespace("steady");
		int count = rate * seconds;
		// the first second warms up the writers and the watch and is not counted
		int warmUp = Math.min(rate, count / 10);
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(count);
		Peer.Running running = peer.start(namespace, WORKERS, (name, resourceVersion, observed) -> {
			recorder.reconciled(name);
			return false;
		});
		try {
			AtomicLongArray createdAt = this.configMaps.createAtRate(namespace, count, rate);
			awaitAll(recorder, count);
			long[] latencies = new long[count - warmUp];
			int seen = 0;
			for (int i = warmUp; i < count; i++) {
				long reconciledAt = recorder.firstReconcile(i);
				if (reconciledAt != 0) {
					latencies[seen++] = reconciledAt - createdAt.get(i);
				}
			}
			long[] sorted = Arrays.copyOf(latencies, seen);
			Arrays.sort(sorted);
			System.out.printf(Locale.ROOT,
					"%-30s steady %d/s for %d s: reconciled %d of %d   p50 %7.2f ms   p99 %7.2f ms   max %7.2f ms%n",
					peer.name(), rate, seconds, seen, count - warmUp, millis(sorted, 0.50), millis(sorted, 0.99),
					millis(sorted, 1.0));
			return millis(sorted, 0.99);
		}
		finally {
			running.stop();
			this.configMaps.deleteNamespace(namespace);
		}
	}

	private String namespace(String workload) throws Exception {
		String namespace = this.prefix + workload + "-" + this.namespaces.size();
		this.configMaps.createNamespace(namespace);
		this.namespaces.add(namespace);
		return namespace;
	}

	/**
	 * Create a namespace of ConfigMaps applied by two field managers.
	 * @return its name
	 */
	String populated(String workload, int count) throws Exception {
		String namespace = namespace(workload);
		this.configMaps.applyTwoManagers(namespace, 0, count);
		return namespace;
	}

	void cleanUp() {
		this.namespaces.forEach(this.configMaps::deleteNamespace);
	}

	private static void awaitAll(EndToEndLatency.Recorder recorder, int count) {
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
		while (!recorder.isComplete()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("not all of " + count + " ConfigMaps were seen within 5 minutes");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	static double millis(long[] sorted, double quantile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		// nearest rank
		int rank = (int) Math.ceil(quantile * sorted.length);
		return sorted[Math.max(0, rank - 1)] / 1e6;
	}

	static ApiClient informerClient(Path kubeconfig) throws java.io.IOException {
		ApiClient client = Config.fromConfig(kubeconfig.toString());
		// watches are long-lived; informers require this
		client.setReadTimeout(0);
		return client;
	}

	/**
	 * The sizes of the workloads.
	 *
	 * @param cold the ConfigMaps of the cold start
	 * @param write the ConfigMaps of the write-through
	 * @param rate the creates per second of the steady latency
	 * @param seconds how long the steady latency creates
	 * @param rounds how many times each workload runs, each round starting with another
	 * peer; with more than one, the median of each peer's figures is printed too
	 */
	record Settings(int cold, int write, int rate, int seconds, int rounds) {

		static Settings parse(String... args) {
			int cold = 10_000;
			int write = 5_000;
			int rate = 200;
			int seconds = 60;
			int rounds = 3;
			for (int i = 0; i + 1 < args.length; i += 2) {
				int value = Integer.parseInt(args[i + 1]);
				switch (args[i]) {
					case "cold" -> cold = value;
					case "write" -> write = value;
					case "rate" -> rate = value;
					case "seconds" -> seconds = value;
					case "rounds" -> rounds = value;
					default -> throw new IllegalArgumentException(
							"unknown setting " + args[i] + "; expected cold, write, rate, seconds or rounds");
				}
			}
			return new Settings(cold, write, rate, seconds, rounds);
		}

	}

}
