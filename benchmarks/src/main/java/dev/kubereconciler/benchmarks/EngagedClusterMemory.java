package dev.kubereconciler.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.ClusterState;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

/**
 * The memory of an engaged cluster whose caches are empty, and the cost of engaging one:
 * one manager with one fleet controller of ConfigMaps in an empty namespace engages one
 * API server under N names, each with a client of its own as a member of its own would
 * have, one after the other.
 *
 * <p>
 * Usage: {@code EngagedClusterMemory KUBECONFIG NAMESPACE N}. For each engage it measures
 * the time from {@code engage} to the cluster's caches synced ({@code READY}); then it
 * prints {@code engaged N LIVE-BYTES USED-BYTES} with all N engaged,
 * {@code engage N MEDIAN-MS MAX-MS FIRST-MS} (none for N = 0), and, after disengaging
 * them all, {@code disengaged N LIVE-BYTES USED-BYTES}: the heap back where N = 0 left
 * it.
 */
public final class EngagedClusterMemory {

	private EngagedClusterMemory() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 3) {
			System.err.println("Usage: EngagedClusterMemory KUBECONFIG NAMESPACE N");
			System.exit(2);
		}
		Path kubeconfig = Path.of(args[0]);
		String namespace = args[1];
		int count = Integer.parseInt(args[2]);
		ControllerManager manager = ControllerManager.builder(ControllerPeers.informerClient(kubeconfig))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("fleet-config-maps")
				.namespaces(namespace)
				.clusters(ClusterScope.FLEET)
				.reconcile((configMap, context) -> Result.done()))
			.build();
		manager.start();
		try {
			List<Long> engageNanos = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "member-" + i;
				var client = ControllerPeers.informerClient(kubeconfig);
				long start = System.nanoTime();
				manager.fleet().engage(name, client);
				awaitReady(manager, name);
				engageNanos.add(System.nanoTime() - start);
			}
			print("engaged", count);
			if (!engageNanos.isEmpty()) {
				List<Long> sorted = engageNanos.stream().sorted().toList();
				// the first engage of the JVM loads what every later one shares
				System.out.printf(Locale.ROOT, "engage %d %.1f %.1f %.1f%n", count,
						millis(sorted.get((sorted.size() - 1) / 2)), millis(sorted.get(sorted.size() - 1)),
						millis(engageNanos.get(0)));
			}
			for (int i = 0; i < count; i++) {
				manager.fleet().disengage("member-" + i);
			}
			print("disengaged", count);
		}
		finally {
			manager.stop();
		}
		System.exit(0);
	}

	private static void awaitReady(ControllerManager manager, String name) {
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
		while (manager.clusters()
			.stream()
			.noneMatch((cluster) -> cluster.name().equals(name) && cluster.state() == ClusterState.READY)) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Cluster '" + name + "' did not sync: "
						+ manager.clusters().stream().map(ClusterStatus::toString).toList());
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private static void print(String what, int count) throws Exception {
		long used = LimiterMemory.usedAfterCollections();
		long live = PeerMemory.liveBytes(Integer.getInteger("peer.memory.histogram", 0));
		System.out.printf(Locale.ROOT, "%s %d %d %d%n", what, count, live, used);
	}

	private static double millis(long nanos) {
		return nanos / 1e6;
	}

}
