package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * One application instance of the warm standby scenario: a controller with leader
 * election, warm or cold, that journals ({@link ReplicaJvm.Journal}) when its workers
 * start and each reconcile of a ConfigMap whose data says
 * {@code v: changed-<lease name>}.
 *
 * <p>
 * The test runs the leader in its own JVM, so that it can kill it, and the follower in
 * process, so that it can look at the follower's cache.
 */
public final class StandbyCandidate {

	private StandbyCandidate() {
	}

	/**
	 * Run an instance until the process ends.
	 * @param args the kubeconfig, the namespace, the journal file, the identity, the
	 * Lease name and whether to warm up
	 */
	public static void main(String[] args) {
		start(Path.of(args[0]), args[1], Path.of(args[2]), args[3], args[4], Boolean.parseBoolean(args[5]));
	}

	/**
	 * Return the value that marks a ConfigMap changed in the round of one Lease, so that
	 * the changes of an earlier round are not journaled again.
	 */
	static String changed(String lease) {
		return "changed-" + lease;
	}

	static ConfigurableApplicationContext start(Path kubeconfig, String namespace, Path journal, String identity,
			String lease, boolean warmup) {
		List<String> properties = new ArrayList<>(ReplicaJvm.leaderElection("standby", namespace, lease,
				WarmStandbyTakeoverTests.LEASE_DURATION, WarmStandbyTakeoverTests.RETRY_PERIOD));
		properties.add("kube-reconciler.leader-election.warmup=" + warmup);
		return ReplicaJvm.run(Journal.class, kubeconfig, journal, identity, properties);
	}

	static final class Journal extends ReplicaJvm.LeaderJournal {

		private final String changed;

		Journal(Environment environment) {
			super(environment);
			this.changed = changed(environment.getRequiredProperty("kube-reconciler.leader-election.lease-name"));
		}

		@Reconciler(name = "standby", watches = V1ConfigMap.class)
		Result reconcile(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			// only the changes made after the kill: thousands of lines would time the
			// journal, not the takeover
			if (configMap.getData() != null && this.changed.equals(configMap.getData().get("v"))) {
				write("reconciled", configMap.getMetadata().getName());
			}
			return Result.done();
		}

	}

}
