package dev.kubereconciler.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.Config;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

/**
 * One application instance of the leader failover scenario: a controller with leader
 * election that writes when it starts leading and when each reconcile starts and ends,
 * with {@link System#nanoTime()} (one monotonic clock for every process of the machine),
 * to a journal file that the test reads.
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
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("kubeconfig=" + kubeconfig, "journal=" + journal, "identity=" + identity,
					"kube-reconciler.controllers.elected.namespaces=" + namespace,
					"kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-name=failover-leader",
					"kube-reconciler.leader-election.lease-namespace=" + namespace,
					"kube-reconciler.leader-election.lease-duration="
							+ LeaderFailoverTests.LEASE_DURATION.toMillis() + "ms",
					"kube-reconciler.leader-election.renew-deadline=3s",
					"kube-reconciler.leader-election.retry-period=" + LeaderFailoverTests.RETRY_PERIOD.toMillis()
							+ "ms",
					"kube-reconciler.defaults.max-concurrent-reconciles=2", "kube-reconciler.shutdown-timeout=2s")
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeReconcilerAutoConfiguration.class)
	static class Application {

		@Bean
		ApiClient apiClient(org.springframework.core.env.Environment environment) throws IOException {
			return Config.fromConfig(environment.getRequiredProperty("kubeconfig")).setReadTimeout(0);
		}

		@Bean
		Journal journal(org.springframework.core.env.Environment environment) {
			return new Journal(Path.of(environment.getRequiredProperty("journal")),
					environment.getRequiredProperty("identity"));
		}

	}

	/**
	 * Writes one line per fact: {@code <identity> <fact> <name> <nanoTime>}.
	 */
	static final class Journal implements ControllerListener {

		private final Path file;

		private final String identity;

		Journal(Path file, String identity) {
			this.file = file;
			this.identity = identity;
		}

		@Reconciler(name = "elected", watches = V1ConfigMap.class)
		void reconcile(Request request) {
			write("start", request.name());
			// some work, so that overlapping reconciles of two instances would show
			LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
			write("end", request.name());
		}

		@Override
		public void stateChanged(String controller, ControllerState state) {
			if (state == ControllerState.RUNNING) {
				write("leading", "-");
			}
		}

		private synchronized void write(String fact, String name) {
			String line = this.identity + " " + fact + " " + name + " " + System.nanoTime() + "\n";
			try {
				Files.writeString(this.file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
