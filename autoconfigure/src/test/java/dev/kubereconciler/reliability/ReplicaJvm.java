package dev.kubereconciler.reliability;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerState;

/**
 * What the application instances of the multi-process scenarios ({@link LeaderCandidate},
 * {@link StandbyCandidate}, {@link ShardReplica}) share: starting one in a child JVM,
 * running its Spring application against the test API server, and the journal it appends
 * to, one line per fact: {@code <identity> <fact> <name> <System.nanoTime()>} (one
 * monotonic clock for every process of the machine), which {@link ShardJournal} reads.
 */
final class ReplicaJvm {

	private ReplicaJvm() {
	}

	/**
	 * Start a main class in a child JVM with the test class path.
	 * @param main the class whose {@code main} to run
	 * @param log where its standard output and error go
	 * @param args its arguments
	 * @return the process
	 */
	static Process launch(Class<?> main, Path log, List<String> args) throws IOException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
						"-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
						main.getName()));
		command.addAll(args);
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	/**
	 * Run an instance's application, without a web server, with the auto-configuration
	 * and an {@link ApiClient} for the kubeconfig.
	 * @param application the instance's configuration or its {@link Journal} class
	 * @param kubeconfig the test API server's kubeconfig
	 * @param journal the journal file
	 * @param identity the instance's name in the journal
	 * @param properties {@code name=value} properties of the instance
	 * @param args {@code --name=value} arguments that override them
	 * @return the running application
	 */
	static ConfigurableApplicationContext run(Class<?> application, Path kubeconfig, Path journal, String identity,
			List<String> properties, String... args) {
		List<String> all = new ArrayList<>(
				List.of("kubeconfig=" + kubeconfig, "journal=" + journal, "identity=" + identity));
		all.addAll(properties);
		return new SpringApplicationBuilder(Client.class, application).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run(args);
	}

	/**
	 * Return the properties of a controller with leader election.
	 * @param controller the controller's name
	 * @param namespace the namespace it watches and of its Lease
	 * @param lease the Lease's name
	 * @param leaseDuration the lease duration
	 * @param retryPeriod the retry period
	 * @return {@code name=value} properties, with a 3 s renew deadline, 2 workers and a 2
	 * s shutdown timeout
	 */
	static List<String> leaderElection(String controller, String namespace, String lease, Duration leaseDuration,
			Duration retryPeriod) {
		return List.of("kube-reconciler.controllers." + controller + ".namespaces=" + namespace,
				"kube-reconciler.leader-election.enabled=true", "kube-reconciler.leader-election.lease-name=" + lease,
				"kube-reconciler.leader-election.lease-namespace=" + namespace,
				"kube-reconciler.leader-election.lease-duration=" + leaseDuration.toMillis() + "ms",
				"kube-reconciler.leader-election.renew-deadline=3s",
				"kube-reconciler.leader-election.retry-period=" + retryPeriod.toMillis() + "ms",
				"kube-reconciler.defaults.max-concurrent-reconciles=2", "kube-reconciler.shutdown-timeout=2s");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class,
			KubeReconcilerDefinitionsAutoConfiguration.class })
	static class Client {

		@Bean
		ApiClient apiClient(Environment environment) throws IOException {
			return Config.fromConfig(environment.getRequiredProperty("kubeconfig")).setReadTimeout(0);
		}

	}

	/**
	 * Appends one line per fact to the journal file: {@code <identity> <fact> <name>
	 * <nanoTime>}.
	 */
	static class Journal {

		private final Path file;

		private final String identity;

		Journal(Environment environment) {
			this.file = Path.of(environment.getRequiredProperty("journal"));
			this.identity = environment.getRequiredProperty("identity");
		}

		synchronized void write(String fact, String name) {
			String line = this.identity + " " + fact + " " + name + " " + System.nanoTime() + "\n";
			// not Files.writeString: its channel is closed by an interrupt, and a
			// reconcile may be interrupted (the partition table interrupts the reconciles
			// of a partition it loses)
			try (OutputStream out = new FileOutputStream(this.file.toFile(), true)) {
				out.write(line.getBytes(StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/**
	 * A journal that also writes {@code leading} when the instance's controllers start
	 * running, which with leader election is when it starts leading.
	 */
	static class LeaderJournal extends Journal implements ControllerListener {

		LeaderJournal(Environment environment) {
			super(environment);
		}

		@Override
		public void stateChanged(String controller, ControllerState state) {
			if (state == ControllerState.RUNNING) {
				write("leading", "-");
			}
		}

	}

}
