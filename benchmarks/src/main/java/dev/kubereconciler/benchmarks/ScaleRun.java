package dev.kubereconciler.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * One peer's cold start on one namespace, in a JVM of its own, for {@link ScalePeers}:
 * the time to the cache synced and to the last first reconcile, the peak heap meanwhile
 * ({@link HeapWatch}), and the bytes of live objects with every object reconciled (the
 * class histogram's total, as {@link PeerMemory} reads it).
 *
 * <p>
 * Usage: {@code ScaleRun KUBECONFIG PEER NAMESPACE COUNT WARM-NAMESPACE WARM-COUNT}. The
 * peer first starts on the warm namespace, reconciles its ConfigMaps and stops, so that
 * classes are loaded and the code is compiled before the figures, as
 * {@link ControllerPeers} warms up; then a full collection, and the measured start. PEER
 * is one of {@link PeerMemory}'s or {@code bare} (then no live bytes are read: it caches
 * nothing). It prints one line for people and one {@code scale-result} line for
 * {@link ScalePeers}.
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
			run(peer, args[4], warmCount, false).close();
		}
		try (Figures figures = run(peer, args[2], count, !"bare".equals(name))) {
			HeapWatch.Peaks synced = figures.atSync();
			HeapWatch.Peaks peaks = figures.peaks();
			System.out.printf(Locale.ROOT,
					"%-45s %7d ConfigMaps: synced %7.0f ms, last first reconcile %7.0f ms, reconciled %d of %d; "
							+ "heap at start %6.1f MiB, peak %7.1f MiB (to synced %7.1f), after a collection %7.1f, "
							+ "%d collections, direct %5.1f MiB; live %8.1f MiB%n",
					peer.name(), count, figures.synced() / 1e6, figures.last() / 1e6, figures.reconciled(), count,
					mib(figures.base()), mib(peaks.heap()), mib(synced.heap()), mib(peaks.afterCollection()),
					peaks.collections(), mib(peaks.direct()), mib(figures.live()));
			System.out.printf(Locale.ROOT, "scale-result %s %d %d %d %d %d %d %d %d %d %d %d%n", name, count,
					figures.synced(), figures.last(), figures.reconciled(), figures.base(), synced.heap(), peaks.heap(),
					peaks.afterCollection(), peaks.collections(), peaks.direct(), figures.live());
		}
		// client-java and fabric8 leave non-daemon threads behind
		System.exit(0);
	}

	private static double mib(long bytes) {
		return bytes / 1048576.0;
	}

	/**
	 * Start the peer on the namespace after a full collection, wait until it has
	 * reconciled every ConfigMap once, and read the heap, with the controller still
	 * running.
	 */
	private static Figures run(Peer peer, String namespace, int count, boolean live) throws Exception {
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(count);
		long base = LimiterMemory.usedAfterCollections();
		long start;
		long synced;
		Peer.Running running;
		HeapWatch.Peaks atSync;
		HeapWatch.Peaks peaks;
		try (HeapWatch watch = HeapWatch.start()) {
			start = System.nanoTime();
			running = peer.start(namespace, ControllerPeers.WORKERS, (name, resourceVersion, observed) -> {
				recorder.reconciled(name);
				return false;
			});
			synced = System.nanoTime() - start;
			atSync = watch.peaks();
			recorder.awaitAll(DEADLINE);
			peaks = watch.peaks();
		}
		try {
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
				throw new IllegalStateException(
						peer.name() + " reconciled " + reconciled + " of " + count + " ConfigMaps within " + DEADLINE);
			}
			return new Figures(running, synced, last, reconciled, base, atSync, peaks,
					live ? PeerMemory.liveBytes(Integer.getInteger("peer.memory.histogram", 0)) : 0);
		}
		catch (Exception ex) {
			running.stop();
			throw ex;
		}
	}

	/**
	 * What one cold start measured, with its controller still running until closed.
	 *
	 * @param running the controller
	 * @param synced nanoseconds from the start to the cache synced
	 * @param last nanoseconds from the start to the last first reconcile
	 * @param reconciled the ConfigMaps reconciled
	 * @param base the heap in use after full collections before the start
	 * @param atSync the peaks until the cache synced
	 * @param peaks the peaks until the last first reconcile
	 * @param live the bytes of live objects after it, 0 when not read
	 */
	private record Figures(Peer.Running running, long synced, long last, int reconciled, long base,
			HeapWatch.Peaks atSync, HeapWatch.Peaks peaks, long live) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.running.stop();
		}

	}

}
