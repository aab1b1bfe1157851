package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * One replica of a {@link DeployedApplication}: the pod, run as a local JVM on a loopback
 * address of its own, restarted as the kubelet restarts a container whose liveness or
 * startup probe fails or whose process exits.
 */
public final class Replica {

	private static final int TAIL_CHARACTERS = 8 * 1024;

	private static final Duration INITIAL_BACK_OFF = Duration.ofSeconds(10);

	private static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

	private static final Duration BACK_OFF_RESET = Duration.ofMinutes(10);

	private final PodIdentity pod;

	private final List<String> command;

	private final Supplier<Map<String, String>> environment;

	private final Path log;

	private final Duration grace;

	private final Clock clock;

	private final ReplicaProbes probes;

	private @Nullable Process process;

	private @Nullable Termination lastTermination;

	private @Nullable Instant restartAt;

	private boolean stopped;

	private boolean ready;

	private int restarts;

	// the kubelet's back-off steps, reset once a container ran for 10 minutes; unlike
	// restartCount, which only grows
	private int backOffSteps;

	private @Nullable Instant startedAt;

	Replica(PodIdentity pod, List<String> command, Supplier<Map<String, String>> environment, Path log, Duration grace,
			Clock clock, ReplicaProbes probes) {
		this.pod = pod;
		this.command = List.copyOf(command);
		this.environment = environment;
		this.log = log;
		this.grace = grace;
		this.clock = clock;
		this.probes = probes;
	}

	/**
	 * Return the pod's name, which is also the process's {@code HOSTNAME}.
	 * @return the pod name
	 */
	public String podName() {
		return this.pod.name();
	}

	/**
	 * Return the pod's IP: the loopback address that this replica's servers bind.
	 * @return the address, such as {@code 127.18.4.2}
	 */
	public String podIp() {
		return this.pod.ip();
	}

	/**
	 * Tell whether the replica is ready: its process runs, its startup probe has passed
	 * and its readiness probe passes (a container without one is ready once started).
	 * @return whether it is ready
	 */
	public synchronized boolean isReady() {
		return this.ready;
	}

	/**
	 * Tell whether the replica's process runs.
	 * @return whether it runs
	 */
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Return how many times the process was restarted after a failed probe or an exit.
	 * @return the restart count
	 */
	public synchronized int restartCount() {
		return this.restarts;
	}

	/**
	 * Return the process id of the running process.
	 * @return the pid
	 * @throws IllegalStateException if it does not run
	 */
	public synchronized long pid() {
		Process running = this.process;
		if (running == null || !running.isAlive()) {
			throw new IllegalStateException("Replica " + podName() + " does not run");
		}
		return running.pid();
	}

	/**
	 * Return the file the process's standard output and error go to, across restarts.
	 * @return the log file
	 */
	public Path logFile() {
		return this.log;
	}

	/**
	 * Return everything the process has written so far, across restarts.
	 * @return the log
	 */
	public String logs() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Stop the replica as the kubelet stops a deleted pod: SIGTERM, then SIGKILL if the
	 * process still runs after {@code terminationGracePeriodSeconds}. It stays stopped.
	 * @return how it ended
	 */
	public Termination stop() {
		return stop(this.grace);
	}

	/**
	 * Kill the replica's process at once (SIGKILL), as a crashed node would; it stays
	 * stopped.
	 * @return how it ended
	 */
	public Termination kill() {
		return stop(Duration.ZERO);
	}

	/**
	 * Freeze the process (SIGSTOP), as a long garbage collection or a partitioned node
	 * would: it holds its sockets and leases but answers nothing. Probes keep running, so
	 * a liveness probe restarts it after its failure threshold.
	 */
	public void pause() {
		signal("STOP");
	}

	/**
	 * Let a {@linkplain #pause() paused} process run on (SIGCONT).
	 */
	public void resume() {
		signal("CONT");
	}

	/**
	 * Return how the process ended the last time it was stopped, killed or restarted.
	 * @return the termination, or {@code null} if it never ended
	 */
	public synchronized @Nullable Termination lastTermination() {
		return this.lastTermination;
	}

	/**
	 * Return the end of the log, for failure messages.
	 * @return up to the last 8 KiB of the log
	 */
	public String logTail() {
		String logs = Files.exists(this.log) ? logs() : "";
		return (logs.length() > TAIL_CHARACTERS) ? logs.substring(logs.length() - TAIL_CHARACTERS) : logs;
	}

	@Override
	public String toString() {
		return "Replica " + podName() + " at " + podIp();
	}

	synchronized void start() {
		try {
			Files.writeString(this.log,
					"--- " + this.clock.instant() + " starting " + podName() + " at " + podIp()
							+ System.lineSeparator(),
					StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
					java.nio.file.StandardOpenOption.APPEND);
			ProcessBuilder builder = new ProcessBuilder(this.command).redirectErrorStream(true)
				.redirectOutput(Redirect.appendTo(this.log.toFile()));
			Map<String, String> environment = this.environment.get();
			// what it ran with, beside the log, for a test that looks into a failure
			Files.write(this.log.resolveSibling("environment"),
					environment.entrySet()
						.stream()
						.map((variable) -> variable.getKey() + "=" + variable.getValue())
						.toList());
			builder.environment().clear();
			builder.environment().putAll(environment);
			this.process = builder.start();
			this.startedAt = this.clock.instant();
			this.restartAt = null;
			this.process.getOutputStream().close();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + this + ": " + String.join(" ", this.command), ex);
		}
		this.probes.reset(this.clock.instant());
	}

	/**
	 * Probe the replica if due, and decide whether it must restart.
	 * @param now the clock's time
	 * @return why the replica must restart, or {@code null}
	 */
	synchronized @Nullable String tick(Instant now) {
		Process running = this.process;
		if (this.stopped || running == null) {
			this.ready = false;
			return null;
		}
		if (!running.isAlive()) {
			this.ready = false;
			// the kubelet's CrashLoopBackOff: 10 s, doubled after each restart, at most
			// 5 min, and back to 10 s for a container that ran 10 minutes
			if (this.restartAt == null) {
				if (this.startedAt != null && Duration.between(this.startedAt, now).compareTo(BACK_OFF_RESET) >= 0) {
					this.backOffSteps = 0;
				}
				this.restartAt = now.plus(backOff());
			}
			return now.isBefore(this.restartAt) ? null : "its process exited with code " + running.exitValue();
		}
		ReplicaProbes.Outcome outcome = this.probes.tick(now);
		this.ready = outcome.ready();
		return outcome.restartReason();
	}

	private Duration backOff() {
		return (this.backOffSteps >= 5) ? MAX_BACK_OFF : INITIAL_BACK_OFF.multipliedBy(1L << this.backOffSteps);
	}

	/**
	 * Tell why the replica cannot become ready, if it cannot.
	 * @return the reason, or {@code null} while it may still become ready
	 */
	synchronized @Nullable String failedStart() {
		Process running = this.process;
		if (running != null && !running.isAlive()) {
			return podName() + " exited with code " + running.exitValue() + " before it was ready";
		}
		return null;
	}

	String probeState() {
		return this.probes.describe();
	}

	void restart(String reason) {
		Termination termination = terminate(this.grace);
		synchronized (this) {
			if (this.stopped) {
				return;
			}
			this.lastTermination = termination;
			this.restarts++;
			this.backOffSteps++;
			try {
				Files.writeString(this.log,
						"--- " + this.clock.instant() + " restarting " + podName() + ": " + reason
								+ System.lineSeparator(),
						StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			start();
		}
	}

	private Termination stop(Duration grace) {
		synchronized (this) {
			this.stopped = true;
			this.ready = false;
		}
		Termination termination = terminate(grace);
		synchronized (this) {
			this.lastTermination = termination;
		}
		return termination;
	}

	private Termination terminate(Duration grace) {
		Process running;
		synchronized (this) {
			running = this.process;
			this.ready = false;
		}
		if (running == null) {
			return new Termination(Duration.ZERO, false, 0);
		}
		Instant started = this.clock.instant();
		boolean killed = false;
		if (running.isAlive() && !grace.isZero()) {
			running.destroy();
		}
		if (!awaitExit(running, grace)) {
			killed = true;
			running.destroyForcibly();
			awaitExit(running, Duration.ofSeconds(10));
		}
		Duration drained = Duration.between(started, this.clock.instant());
		return new Termination(drained, killed, running.isAlive() ? -1 : running.exitValue());
	}

	private static boolean awaitExit(Process process, Duration timeout) {
		try {
			process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (ExecutionException | TimeoutException ex) {
			return false;
		}
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + this, ex);
		}
	}

}
