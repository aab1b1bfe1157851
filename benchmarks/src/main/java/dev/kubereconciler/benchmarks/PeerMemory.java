package dev.kubereconciler.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.management.ObjectName;

import io.kubernetes.client.openapi.ApiException;

import dev.kubereconciler.cache.CacheTransforms;

/**
 * The heap a peer's controller retains with the ConfigMaps of one namespace cached:
 * started, every ConfigMap reconciled once (no-op), then the bytes of live objects, the
 * total of the class histogram that the JVM takes after a full collection. Run it once on
 * an empty namespace for the baseline and once on a full one, each in a fresh JVM with
 * the same flags ({@code -XX:+UseSerialGC}); the retained heap per object is the
 * difference divided by the count.
 *
 * <p>
 * The heap occupancy after full collections, as {@link LimiterMemory} reads it, is not
 * used here: with a controller running, threads take fresh allocation buffers between the
 * collection and the reading, and the serial collector may leave dead space in place, so
 * that reading varied by up to 13 MB between JVMs whose live objects were the same to the
 * kilobyte. It is still printed, second, for comparison.
 *
 * <p>
 * Usage: {@code PeerMemory KUBECONFIG PEER NAMESPACE COUNT}, where PEER is {@code ours},
 * {@code ours-keep-managed-fields}, {@code ours-no-compact}, {@code josdk} or
 * {@code client-java}, and COUNT the ConfigMaps in the namespace. It prints one line:
 * {@code memory PEER COUNT LIVE-BYTES USED-BYTES}; with {@code -Dpeer.memory.histogram=N}
 * it also prints the N largest lines of the class histogram to standard error.
 * {@code PeerMemory KUBECONFIG populate NAMESPACE FROM TO} creates the namespace if need
 * be and ConfigMaps {@code FROM} to {@code TO - 1} in it, applied by two field managers.
 */
public final class PeerMemory {

	private PeerMemory() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 4 && !(args.length == 5 && "populate".equals(args[1]))) {
			System.err.println("Usage: PeerMemory KUBECONFIG PEER NAMESPACE COUNT");
			System.err.println("       PeerMemory KUBECONFIG populate NAMESPACE FROM TO");
			System.exit(2);
		}
		Path kubeconfig = Path.of(args[0]);
		if ("populate".equals(args[1])) {
			ConfigMaps configMaps = new ConfigMaps(ControllerPeers.informerClient(kubeconfig));
			try {
				configMaps.createNamespace(args[2]);
			}
			catch (ApiException ex) {
				if (ex.getCode() != 409) {
					throw ex;
				}
			}
			configMaps.applyTwoManagers(args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]));
			System.exit(0);
		}
		Peer peer = peer(args[1], kubeconfig);
		Heap heap = measure(peer, args[2], Integer.parseInt(args[3]));
		System.out.printf(Locale.ROOT, "memory %s %s %d %d%n", args[1], args[3], heap.live(), heap.used());
		System.exit(0);
	}

	static Peer peer(String name, Path kubeconfig) throws Exception {
		return switch (name) {
			case "ours" -> new OursPeer(ControllerPeers.informerClient(kubeconfig));
			case "ours-keep-managed-fields" -> new OursPeer(ControllerPeers.informerClient(kubeconfig),
					CacheTransforms.defaults().stripManagedFields(false));
			case "ours-no-compact" ->
				new OursPeer(ControllerPeers.informerClient(kubeconfig), CacheTransforms.defaults().compact(false));
			case "josdk" -> new JosdkPeer(Fabric8Configs.fromKubeconfig(kubeconfig));
			case "client-java" -> new ClientJavaPeer(ControllerPeers.informerClient(kubeconfig));
			default -> throw new IllegalArgumentException("unknown peer " + name
					+ "; expected ours, ours-keep-managed-fields, ours-no-compact, josdk or client-java");
		};
	}

	/**
	 * Take the class histogram of live objects (after a full collection), print its first
	 * lines, which tell what a figure is made of, and return its total.
	 * @param lines the number of classes to print
	 * @return the bytes of all live objects
	 */
	static long liveBytes(int lines) throws Exception {
		Object histogram = ManagementFactory.getPlatformMBeanServer()
			.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
					new Object[] { null }, new String[] { String[].class.getName() });
		String[] all = histogram.toString().split("\n");
		String total = all[all.length - 1].trim();
		if (lines > 0) {
			for (int i = 0; i < Math.min(all.length - 1, lines + 2); i++) {
				System.err.println(all[i]);
			}
			System.err.println(total);
		}
		if (!total.startsWith("Total")) {
			throw new IllegalStateException("Unexpected last line of the class histogram: " + total);
		}
		return Long.parseLong(total.substring(total.lastIndexOf(' ') + 1));
	}

	/**
	 * Start the peer on the namespace, wait until it has reconciled every ConfigMap once,
	 * and read the heap, with the controller still running.
	 * @return the bytes of live objects and the heap in use after full collections
	 */
	static Heap measure(Peer peer, String namespace, int count) throws Exception {
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(count);
		Peer.Running running = peer.start(namespace, ControllerPeers.WORKERS, (name, resourceVersion, observed) -> {
			recorder.reconciled(name);
			return false;
		});
		try {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			while (!recorder.isComplete() && System.nanoTime() - deadline < 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			}
			if (!recorder.isComplete()) {
				throw new IllegalStateException(peer.name() + " did not reconcile " + count + " ConfigMaps");
			}
			long used = LimiterMemory.usedAfterCollections();
			return new Heap(liveBytes(Integer.getInteger("peer.memory.histogram", 0)), used);
		}
		finally {
			running.stop();
		}
	}

	/**
	 * Two readings of the heap.
	 *
	 * @param live the bytes of live objects, from the class histogram
	 * @param used the heap in use after full collections, as {@link LimiterMemory} reads
	 * it
	 */
	record Heap(long live, long used) {
	}

}
