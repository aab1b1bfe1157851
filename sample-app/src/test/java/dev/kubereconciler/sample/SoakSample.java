package dev.kubereconciler.sample;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.test.deploy.Replica;

/**
 * What one replica showed at the end of one minute: its counters (which start again when
 * the process restarts), heap after a full GC, threads, open files and lists.
 *
 * @param minute the minute it ends
 * @param at when it was taken
 * @param replica the replica's name
 * @param pid its process
 * @param reconciles reconciles of every controller
 * @param errors reconciles that ended in an error
 * @param depth keys ready in its queues, plus keys waiting out a delay
 * @param heap heap used after a full GC, in bytes
 * @param threads threads of the process
 * @param openFiles open file descriptors of the process
 * @param lists lists its informers made, across restarts
 * @param leads whether it led
 */
record SoakSample(int minute, Instant at, String replica, long pid, double reconciles, double errors, double depth,
		double heap, long threads, long openFiles, long lists, boolean leads) {

	/** Take a sample, or {@code null} when the replica does not answer now. */
	static @Nullable SoakSample take(int minute, SoakReplicas replicas, Replica replica) {
		if (!replica.isRunning()) {
			return null;
		}
		long pid = replica.pid();
		replicas.collectGarbage(replica);
		Map<String, Double> metrics = replicas.scrape(replica);
		if (metrics == null) {
			return null;
		}
		return new SoakSample(minute, Instant.now(), replicas.name(replica), pid,
				metrics.getOrDefault("controller_runtime_reconcile_total", 0.0),
				metrics.getOrDefault("controller_runtime_reconcile_errors_total", 0.0),
				metrics.getOrDefault("workqueue_depth", 0.0) + metrics.getOrDefault("workqueue_waiting", 0.0),
				metrics.getOrDefault("heap", 0.0), SoakReplicas.threads(replica), SoakReplicas.openFiles(replica),
				SoakReplicas.lists(replica), metrics.getOrDefault("leader_election_master_status", 0.0) > 0);
	}

}
