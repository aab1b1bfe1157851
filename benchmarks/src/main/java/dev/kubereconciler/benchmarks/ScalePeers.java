package dev.kubereconciler.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import okhttp3.Response;
import okio.Buffer;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;

/**
 * Every peer's cold start on many ConfigMaps (issue 27, part 2: 100,000 of 1 KiB), each
 * run in a fresh JVM with the same flags by {@link ScaleRun}: the time to the cache
 * synced and to the last first reconcile, the peak heap in use and the peak live heap
 * during the initial list and the first reconciles ({@link HeapWatch}), and the live
 * bytes per cached object, minus the same peer's JVM on an empty namespace. Our peer runs
 * twice, listing in pages of 500 (the default) and in one unpaged request, to show what
 * paging saves; the bare client, which lists in pages of 500 and caches nothing, is the
 * floor for the cold start.
 *
 * <p>
 * Usage: {@code ScalePeers KUBECONFIG [count N] [rounds K] [warmup W] [peers a,b,...]},
 * by default 100,000 ConfigMaps, 1 round, a warm-up on 300, and the peers {@code ours},
 * {@code ours-unpaged}, {@code josdk}, {@code client-java} and {@code bare}. Each round
 * starts with the next peer. The peers' JVM flags are {@value #DEFAULT_JVM} unless
 * {@code -Dscale.jvm} says otherwise. The ConfigMaps, applied by two field managers as in
 * {@link PeerMemory}, go to the namespace {@code scale-N}, which a later run on the same
 * API server reuses when it holds N already.
 */
public final class ScalePeers {

	/**
	 * The JVM flags of every peer's JVM: a small young generation keeps the peak in use
	 * close to what the peer holds, and a full collection that compacts everything makes
	 * the heap after it the live objects alone (by default the serial collector leaves up
	 * to 5% of the old generation as dead objects in place, which the class histogram
	 * then counts).
	 */
	static final String DEFAULT_JVM = "-XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xms4g -Xmx4g -Xmn64m";

	static final List<String> PEERS = List.of("ours", "ours-unpaged", "josdk", "client-java", "bare");

	private static final int WRITERS = 16;

	private final Path kubeconfig;

	private final ApiClient client;

	private final PrintStream out;

	ScalePeers(Path kubeconfig, PrintStream out) throws Exception {
		this.kubeconfig = kubeconfig;
		this.client = ControllerPeers.informerClient(kubeconfig);
		this.out = out;
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("Usage: ScalePeers KUBECONFIG [count N] [rounds K] [warmup W] [peers a,b,...]");
			System.exit(2);
		}
		Settings settings = Settings.parse(Arrays.copyOfRange(args, 1, args.length));
		boolean complete = new ScalePeers(Path.of(args[0]), System.out).run(settings);
		System.exit(complete ? 0 : 1);
	}

	/**
	 * Populate the namespaces, then run every peer as the settings say.
	 * @return whether every run completed
	 */
	boolean run(Settings settings) throws Exception {
		this.out.printf("%s: ScalePeers %s%npeer JVMs: java %s%n", Instant.now(), settings, settings.jvm());
		String namespace = populated("scale-" + settings.count(), settings.count());
		String warm = populated("scale-warm-" + settings.warmup(), settings.warmup());
		String empty = populated("scale-empty", 0);
		long json = wholeListBytes(namespace);
		this.out.printf(Locale.ROOT, "the whole list of %s as one JSON answer: %.1f MiB (%.0f bytes per object)%n",
				namespace, json / 1048576.0, (double) json / Math.max(1, settings.count()));
		boolean complete = true;
		Map<String, Long> empties = new LinkedHashMap<>();
		this.out.println("== baselines: every peer on an empty namespace, after the same warm-up");
		for (String peer : settings.peers()) {
			if (!"bare".equals(peer)) {
				ScaleResult result = measure(settings, peer, empty, 0, warm);
				complete &= result != null;
				empties.put(peer, (result != null) ? result.live() : null);
			}
		}
		Map<String, List<ScaleResult>> results = new LinkedHashMap<>();
		settings.peers().forEach((peer) -> results.put(peer, new ArrayList<>()));
		for (int round = 0; round < settings.rounds(); round++) {
			this.out.printf("== round %d of %d: %d ConfigMaps%n", round + 1, settings.rounds(), settings.count());
			for (int i = 0; i < settings.peers().size(); i++) {
				String peer = settings.peers().get((round + i) % settings.peers().size());
				ScaleResult result = measure(settings, peer, namespace, settings.count(), warm);
				complete &= result != null;
				if (result != null) {
					results.get(peer).add(result);
				}
			}
		}
		new ScaleSummary(this.out, settings.count(), json, results, empties).print();
		return complete;
	}

	/**
	 * Make sure the namespace holds ConfigMaps {@code 0} to {@code count - 1}, applied by
	 * two field managers; a namespace that already holds {@code count} is kept as it is.
	 */
	private String populated(String namespace, int count) throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		ConfigMaps configMaps = new ConfigMaps(this.client);
		try {
			configMaps.createNamespace(namespace);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				throw ex;
			}
		}
		V1ConfigMapList first = core.listNamespacedConfigMap(namespace).limit(1).execute();
		Long remaining = first.getMetadata().getRemainingItemCount();
		long have = first.getItems().size() + ((remaining != null) ? remaining : 0);
		if (have == count) {
			this.out.printf("found %d ConfigMaps in %s, kept%n", count, namespace);
		}
		else {
			// an interrupted population leaves gaps anywhere: apply them all, which
			// leaves those that exist unchanged
			configMaps.applyTwoManagers(namespace, 0, count, WRITERS);
		}
		return namespace;
	}

	/**
	 * The bytes of the JSON answer to one unpaged list of the namespace, as the watch
	 * cache serves it, read as a stream and not kept. An API server that has just started
	 * on kept data may not answer from its watch cache yet; the list is then read from
	 * etcd, which gives the same JSON.
	 */
	private long wholeListBytes(String namespace) throws Exception {
		long fromWatchCache = listBytes(namespace, "0");
		return (fromWatchCache > 0) ? fromWatchCache : listBytes(namespace, null);
	}

	private long listBytes(String namespace, @Nullable String resourceVersion) throws Exception {
		try (Response response = new CoreV1Api(this.client).listNamespacedConfigMap(namespace)
			.resourceVersion(resourceVersion)
			.buildCall(null)
			.execute()) {
			if (!response.isSuccessful()) {
				this.out.printf(Locale.ROOT, "a list of %s at resourceVersion %s was answered %d%n", namespace,
						resourceVersion, response.code());
				return 0;
			}
			BufferedSource source = response.body().source();
			Buffer chunk = new Buffer();
			long total = 0;
			for (long read = source.read(chunk, 1 << 16); read != -1; read = source.read(chunk, 1 << 16)) {
				total += read;
				chunk.clear();
			}
			return total;
		}
	}

	/**
	 * Run one peer in a JVM of its own.
	 * @return what it measured, or {@code null} if it failed
	 */
	private ScaleResult measure(Settings settings, String peer, String namespace, int count, String warm)
			throws Exception {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.addAll(Arrays.asList(settings.jvm().trim().split("\\s+")));
		String peerArgument = peer;
		if ("ours-unpaged".equals(peer)) {
			command.add("-D" + OursPeer.PAGE_SIZE_PROPERTY + "=0");
			peerArgument = "ours";
		}
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleRun.class.getName(),
				this.kubeconfig.toString(), peerArgument, namespace, Integer.toString(count), warm,
				Integer.toString(settings.warmup())));
		String loadBefore = loadAverage();
		Process process = new ProcessBuilder(command).redirectError(Redirect.INHERIT).start();
		ScaleResult result = null;
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				if (line.startsWith("scale-result ")) {
					result = ScaleResult.parse(peer, line);
				}
				else {
					this.out.println(line);
				}
			}
		}
		if (!process.waitFor(30, TimeUnit.MINUTES)) {
			process.destroyForcibly();
		}
		this.out.printf("  load average before %s, after %s%n", loadBefore, loadAverage());
		if (result == null || process.exitValue() != 0) {
			this.out.printf("%s on %s: FAILED (exit status %s)%n", peer, namespace,
					process.isAlive() ? "none, killed" : process.exitValue());
			return null;
		}
		return result;
	}

	private static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
			return String.join(" ", fields[0], fields[1], fields[2]);
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * What the run covers.
	 *
	 * @param count the ConfigMaps
	 * @param rounds how many times every peer runs, each round starting with the next
	 * @param warmup the ConfigMaps each peer JVM reconciles before the figures
	 * @param peers the peers
	 * @param jvm the flags of every peer's JVM
	 */
	record Settings(int count, int rounds, int warmup, List<String> peers, String jvm) {

		static Settings parse(String... args) {
			int count = 100_000;
			int rounds = 1;
			int warmup = 300;
			List<String> peers = PEERS;
			for (int i = 0; i + 1 < args.length; i += 2) {
				switch (args[i]) {
					case "count" -> count = Integer.parseInt(args[i + 1]);
					case "rounds" -> rounds = Integer.parseInt(args[i + 1]);
					case "warmup" -> warmup = Integer.parseInt(args[i + 1]);
					case "peers" -> peers = List.of(args[i + 1].split(","));
					default -> throw new IllegalArgumentException(
							"unknown setting " + args[i] + "; expected count, rounds, warmup or peers");
				}
			}
			for (String peer : peers) {
				if (!PEERS.contains(peer)) {
					throw new IllegalArgumentException("unknown peer " + peer + "; expected some of " + PEERS);
				}
			}
			return new Settings(count, rounds, warmup, peers, System.getProperty("scale.jvm", DEFAULT_JVM));
		}

	}

	/**
	 * The figures of one peer's JVM, from its {@code scale-result} line: times in
	 * nanoseconds, heap figures in bytes; {@code base} is the heap in use before the
	 * timed pass, {@code liveBase} before the live pass.
	 */
	record ScaleResult(String peer, int count, long synced, long last, int reconciled, long base, long peakToSync,
			long peak, int collections, long direct, long live, long liveBase, long peakLive, int fullCollections) {

		static ScaleResult parse(String peer, String line) {
			Map<String, String> fields = new HashMap<>();
			for (String field : line.substring("scale-result ".length()).split(" ")) {
				int equals = field.indexOf('=');
				fields.put(field.substring(0, equals), field.substring(equals + 1));
			}
			ToLongFunction<String> number = (key) -> Long.parseLong(Objects.requireNonNull(fields.get(key), key));
			return new ScaleResult(peer, (int) number.applyAsLong("count"), number.applyAsLong("synced"),
					number.applyAsLong("last"), (int) number.applyAsLong("reconciled"), number.applyAsLong("base"),
					number.applyAsLong("peakToSync"), number.applyAsLong("peak"),
					(int) number.applyAsLong("collections"), number.applyAsLong("direct"), number.applyAsLong("live"),
					number.applyAsLong("liveBase"), number.applyAsLong("peakLive"),
					(int) number.applyAsLong("fullCollections"));
		}

		static double median(List<ScaleResult> results, ToDoubleFunction<ScaleResult> figure) {
			double[] values = results.stream().mapToDouble(figure).sorted().toArray();
			int middle = values.length / 2;
			return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
		}

	}

}
