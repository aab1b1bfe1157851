package dev.kubereconciler.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import dev.kubereconciler.time.Sleeper;

/**
 * The size of a soak and the leader election it runs with.
 *
 * @param minutes how long the churn and the faults go on
 * @param output where the tables, the chart and the replicas' logs go
 * @param leaseDuration the Lease's duration
 * @param renewDeadline how long a leader tries to renew before it stops leading
 * @param retryPeriod how often candidates try
 * @param spike how long a latency spike lasts
 * @param faultPeriod how often a fault starts (the next one waits for the last to be
 * recovered from)
 * @param maxWidgets how many widgets the churn keeps at most
 * @param writePause the pause between two writes of the churn
 * @param managerQps the manager bucket's reconciles per second (its burst is twice that)
 */
record SoakSettings(int minutes, Path output, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod,
		Duration spike, Duration faultPeriod, int maxWidgets, Duration writePause, int managerQps) {

	/**
	 * The soak as {@code -Dkube-reconciler.soak.minutes} sizes it: 2 minutes with a fault
	 * at once after another in the default build, a fault every 90 s in a long run.
	 */
	static SoakSettings fromSystemProperties() {
		int minutes = Integer.getInteger("kube-reconciler.soak.minutes", 2);
		if (minutes < 1) {
			throw new IllegalArgumentException(
					"Set kube-reconciler.soak.minutes to 1 or more minutes of churn and faults, was " + minutes);
		}
		Path output = Path.of(System.getProperty("kube-reconciler.soak.output", "target/soak"));
		boolean long_ = minutes > 5;
		return new SoakSettings(minutes, output, Duration.ofSeconds(8), Duration.ofSeconds(6), Duration.ofSeconds(1),
				Duration.ofSeconds(long_ ? 20 : 8), Duration.ofSeconds(long_ ? 90 : 0), long_ ? 60 : 20,
				Duration.ofMillis(long_ ? 500 : 400), 20);
	}

	/** The generator's arguments that give the Deployment this leader election. */
	String[] deploymentArguments() {
		return new String[] { "--kube-reconciler.deployment.replicas=3",
				"--kube-reconciler.leader-election.enabled=true",
				"--kube-reconciler.leader-election.lease-duration=" + this.leaseDuration.toSeconds() + "s",
				"--kube-reconciler.leader-election.renew-deadline=" + this.renewDeadline.toSeconds() + "s",
				"--kube-reconciler.leader-election.retry-period=" + this.retryPeriod.toSeconds() + "s",
				"--kube-reconciler.manager.rate-limiter.qps=" + this.managerQps,
				"--kube-reconciler.manager.rate-limiter.burst=" + 2 * this.managerQps };
	}

	// the soak runs on the real clock: its pauses are its schedule, not a test's wait
	static void pause(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return;
		}
		try {
			Sleeper.system().sleep(duration.toNanos());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	static String run(String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (process.waitFor() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
			}
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException(String.join(" ", command) + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
