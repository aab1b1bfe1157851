package dev.kubereconciler.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.Config;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * One application instance of the warm standby scenario: a controller with leader
 * election, warm or cold, that journals when its workers start and each reconcile of a
 * ConfigMap whose data says {@code v: changed-<lease name>}, with
 * {@link System#nanoTime()} (one monotonic clock for every process of the machine).
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
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.properties("kubeconfig=" + kubeconfig, "journal=" + journal, "identity=" + identity,
					"kube-reconciler.controllers.standby.namespaces=" + namespace,
					"kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-name=" + lease,
					"kube-reconciler.leader-election.lease-namespace=" + namespace,
					"kube-reconciler.leader-election.lease-duration="
							+ WarmStandbyTakeoverTests.LEASE_DURATION.toMillis() + "ms",
					"kube-reconciler.leader-election.renew-deadline=3s",
					"kube-reconciler.leader-election.retry-period=" + WarmStandbyTakeoverTests.RETRY_PERIOD.toMillis()
							+ "ms",
					"kube-reconciler.leader-election.warmup=" + warmup,
					"kube-reconciler.defaults.max-concurrent-reconciles=2", "kube-reconciler.shutdown-timeout=2s")
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeReconcilerAutoConfiguration.class)
	static class Application {

		@Bean
		ApiClient apiClient(Environment environment) throws IOException {
			return Config.fromConfig(environment.getRequiredProperty("kubeconfig")).setReadTimeout(0);
		}

		@Bean
		Journal journal(Environment environment) {
			return new Journal(Path.of(environment.getRequiredProperty("journal")),
					environment.getRequiredProperty("identity"),
					changed(environment.getRequiredProperty("kube-reconciler.leader-election.lease-name")));
		}

	}

	/**
	 * Writes one line per fact: {@code <identity> <fact> <name> <nanoTime>}.
	 */
	static final class Journal implements ControllerListener {

		private final Path file;

		private final String identity;

		private final String changed;

		Journal(Path file, String identity, String changed) {
			this.file = file;
			this.identity = identity;
			this.changed = changed;
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
