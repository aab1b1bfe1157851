package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

/**
 * One application instance of the leader failover scenario: a controller with leader
 * election that journals ({@link ReplicaJvm.Journal}) when it starts leading and when
 * each reconcile starts and ends.
 *
 * <p>
 * The test runs one instance in its own JVM, so that it can kill it, and one in process.
 */
public final class LeaderCandidate {

	private LeaderCandidate() {
	}

	/**
	 * Run an instance until the process ends.
	 * @param args the kubeconfig, the namespace, the journal file and the identity
	 */
	public static void main(String[] args) {
		start(Path.of(args[0]), args[1], Path.of(args[2]), args[3]);
	}

	static ConfigurableApplicationContext start(Path kubeconfig, String namespace, Path journal, String identity) {
		return ReplicaJvm.run(Journal.class, kubeconfig, journal, identity, ReplicaJvm.leaderElection("elected",
				namespace, "failover-leader", LeaderFailoverTests.LEASE_DURATION, LeaderFailoverTests.RETRY_PERIOD));
	}

	static final class Journal extends ReplicaJvm.LeaderJournal {

		Journal(Environment environment) {
			super(environment);
		}

		@Reconciler(name = "elected", watches = V1ConfigMap.class)
		void reconcile(Request request) {
			write("start", request.name());
			// some work, so that overlapping reconciles of two instances would show
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
			write("end", request.name());
		}

	}

}
