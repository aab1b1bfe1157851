package dev.kubereconciler.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * One peer's cold start on one namespace, in a JVM of its own, for {@link ScalePeers}.
 *
 * <ol>
 * <li>Warm-up: the peer starts on the warm namespace, reconciles its ConfigMaps and
 * stops, so that classes are loaded and the code is compiled before the figures, as
 * {@link ControllerPeers} warms up.</li>
 * <li>The timed pass, after full collections: the time to the cache synced and to the
 * last first reconcile, the peak heap in use meanwhile ({@link HeapWatch#start()}), then,
 * with the controller running, the bytes of live objects (the class histogram's total, as
 * {@link PeerMemory} reads it).</li>
 * <li>The live pass, after the timed pass's controller stopped: the same cold start again
 * with a full collection every {@code -Dscale.live-interval-ms} (200 by default; 0 skips
 * it), whose largest result is the peak live heap
 * ({@link HeapWatch#forcingCollections(Duration)}); not timed.</li>
 * </ol>
 * Usage: {@code ScaleRun KUBECONFIG PEER NAMESPACE COUNT WARM-NAMESPACE WARM-COUNT},
 * where PEER is one of {@link PeerMemory}'s or {@code bare} (which caches nothing: no
 * live bytes are read). It prints two lines for people and one {@code scale-result} line
 * of {@code key=value} pairs for {@link ScalePeers}; heap figures are bytes above the
 * heap in use after full collections before each pass.
 */
public final class ScaleRun {

	private static final Duration DEADLINE = Duration.ofMinutes(15);

	private ScaleRun() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 6) {
			System.err.println("Usage: ScaleRun KUBECONFIG PEER NAMESPACE COUNT WARM-NAMESPACE WARM-COUNT");
			System.exit(2);
		}
		Path kubeconfig = Path.of(args[0]);
		String name = args[1];
		Peer peer = "bare".equals(name) ? new BarePeer(ControllerPeers.informerClient(kubeconfig))
				: PeerMemory.peer(name, kubeconfig);
		int count = Integer.parseInt(args[3]);
		int warmCount = Integer.parseInt(args[5]);
		if (warmCount > 0) {
			coldStart(peer, args[4], warmCount, HeapWatch::start).running().stop();
		}
		ColdStart timed = coldStart(peer, args[2], count, HeapWatch::start);
		long live;
		try {
			live = "bare".equals(name) ? 0 : PeerMemory.liveBytes(Integer.getInteger("peer.memory.histogram", 0));
		}
		finally {
			timed.running().stop();
		}
		long interval = Long.getLong("scale.live-interval-ms", 200);
		ColdStart forced = null;
		if (interval > 0 && count > 0) {
			forced = coldStart(peer, args[2], count, () -> HeapWatch.forcingCollections(Duration.ofMillis(interval)));
			forced.running().stop();
		}
		HeapWatch.Peaks peaks = timed.peaks();
		System.out.printf(Locale.ROOT,
				"%-45s %7d ConfigMaps: synced %7.0f ms, last first reconcile %7.0f ms, reconciled %d of %d; "
						+ "live %7.1f MiB%n",
				peer.name(), count, timed.synced() / 1e6, timed.last() / 1e6, timed.reconciled(), count, mib(live));
		System.out.printf(Locale.ROOT,
				"%-45s heap above %.1f MiB at the start: peak in use %.1f MiB (to synced %.1f), after a collection "
						+ "%.1f MiB, %d collections, direct buffers %.1f MiB; peak live %s%n",
				"", mib(timed.base()), mib(peaks.heap() - timed.base()), mib(timed.atSync().heap() - timed.base()),
				mib(Math.max(0, peaks.afterCollection() - timed.base())), peaks.collections(), mib(peaks.direct()),
				(forced != null)
						? String.format(Locale.ROOT, "%.1f MiB (to synced %.1f, %d full collections every %d ms)",
								mib(forced.peaks().live() - forced.base()), mib(forced.atSync().live() - forced.base()),
								forced.peaks().fullCollections(), interval)
						: "not measured");
		System.out.printf(Locale.ROOT,
				"scale-result peer=%s count=%d synced=%d last=%d reconciled=%d base=%d peakToSync=%d peak=%d "
						+ "collections=%d direct=%d live=%d liveBase=%d peakLive=%d fullCollections=%d%n",
				name, count, timed.synced(), timed.last(), timed.reconciled(), timed.base(), timed.atSync().heap(),
				peaks.heap(), peaks.collections(), peaks.direct(), live, (forced != null) ? forced.base() : 0,
				(forced != null) ? forced.peaks().live() : 0, (forced != null) ? forced.peaks().fullCollections() : 0);
		// client-java and fabric8 leave non-daemon threads behind
		System.exit(0);
	}

	private static double mib(long bytes) {
		return bytes / 1048576.0;
	}

	/**
	 * Start the peer on the namespace after full collections, and wait until it has
	 * reconciled every ConfigMap once; the controller keeps running.
	 */
	private static ColdStart coldStart(Peer peer, String namespace, int count, WatchFactory watches) throws Exception {
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(count);
		long base = LimiterMemory.usedAfterCollections();
		long start;
		long synced;
		Peer.Running running;
		HeapWatch.Peaks atSync;
		HeapWatch.Peaks peaks;
		try (HeapWatch watch = watches.start()) {
			start = System.nanoTime();
			running = peer.start(namespace, ControllerPeers.WORKERS, (name, resourceVersion, observed) -> {
				recorder.reconciled(name);
				return false;
			});
			synced = System.nanoTime() - start;
			atSync = watch.peaks();
			recorder.awaitAll(DEADLINE);
			watch.collectNow();
			peaks = watch.peaks();
		}
		int reconciled = 0;
		long last = 0;
		for (int i = 0; i < count; i++) {
			long first = recorder.firstReconcile(i);
			if (first != 0) {
				reconciled++;
				last = Math.max(last, first - start);
			}
		}
		if (reconciled < count) {
			running.stop();
			throw new IllegalStateException(
					peer.name() + " reconciled " + reconciled + " of " + count + " ConfigMaps within " + DEADLINE);
		}
		return new ColdStart(running, synced, last, reconciled, base, atSync, peaks);
	}

	/**
	 * Starts a {@link HeapWatch}.
	 */
	@FunctionalInterface
	private interface WatchFactory {

		HeapWatch start();

	}

	/**
	 * What one cold start measured, with its controller still running.
	 *
	 * @param running the controller
	 * @param synced nanoseconds from the start to the cache synced
	 * @param last nanoseconds from the start to the last first reconcile
	 * @param reconciled the ConfigMaps reconciled
	 * @param base the heap in use after full collections before the start
	 * @param atSync the peaks until the cache synced
	 * @param peaks the peaks until the last first reconcile
	 */
	private record ColdStart(Peer.Running running, long synced, long last, int reconciled, long base,
			HeapWatch.Peaks atSync, HeapWatch.Peaks peaks) {
	}

}
