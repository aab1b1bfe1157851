package dev.kubereconciler.test;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * One child process of a test server, with its output appended to a log file so that the
 * test's own output stays clean and a failure can quote what the process said.
 */
final class ManagedProcess {

	private static final long POLL_MILLIS = 50;

	private static final int TAIL_BYTES = 8 * 1024;

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

	private final String name;

	private final List<String> command;

	private final Map<String, String> environment;

	private final Path log;

	private @Nullable Process process;

	ManagedProcess(String name, List<String> command, Map<String, String> environment, Path log) {
		this.name = name;
		this.command = List.copyOf(command);
		this.environment = Map.copyOf(environment);
		this.log = log;
	}

	/**
	 * Start the process unless it is running.
	 */
	synchronized void start() {
		if (isAlive()) {
			return;
		}
		ProcessBuilder builder = new ProcessBuilder(this.command).redirectErrorStream(true)
			.redirectOutput(Redirect.appendTo(this.log.toFile()));
		builder.environment().putAll(this.environment);
		try {
			this.process = builder.start();
			// neither binary reads stdin; closing it keeps no pipe open for the
			// process's lifetime
			this.process.getOutputStream().close();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + this.name + " (" + this.command.get(0) + ")", ex);
		}
	}

	/**
	 * Wait until the probe says the process is ready, failing at once if it exits first.
	 * @param timeout how long to wait at most
	 * @param ready the readiness probe, called about every 50 ms
	 */
	void awaitReady(Duration timeout, BooleanSupplier ready) {
		Process running = this.process;
		if (running == null) {
			throw failure("was not started");
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!ready.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw failure("did not become ready within " + timeout.toSeconds() + " s");
			}
			try {
				// doubles as the pause between probes, and returns early if the
				// process dies
				if (running.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
					throw failure("exited with code " + running.exitValue() + " before it was ready");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw failure("was interrupted while waiting for it to become ready");
			}
		}
	}

	synchronized boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Ask the process (and any children, should a wrapper script not {@code exec}) to
	 * terminate, kill whatever still runs after the grace period, and wait for the end.
	 * @param grace how long to wait for a clean exit; zero to kill at once
	 */
	synchronized void stop(Duration grace) {
		if (this.process == null) {
			return;
		}
		List<ProcessHandle> handles = Stream.concat(Stream.of(this.process.toHandle()), this.process.descendants())
			.toList();
		if (grace.isZero() || !terminate(handles, grace)) {
			handles.forEach(ProcessHandle::destroyForcibly);
			// a killed process cannot linger, so this only waits for the kernel to
			// reap it
			awaitExit(handles, KILL_TIMEOUT);
		}
		this.process = null;
	}

	private static boolean terminate(List<ProcessHandle> handles, Duration grace) {
		handles.forEach(ProcessHandle::destroy);
		return awaitExit(handles, grace);
	}

	private static boolean awaitExit(List<ProcessHandle> handles, Duration timeout) {
		CompletableFuture<?>[] exits = handles.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
		try {
			CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
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

	private IllegalStateException failure(String reason) {
		return new IllegalStateException(this.name + " " + reason + ". Command: " + String.join(" ", this.command)
				+ "\nLast lines of " + this.log + ":\n" + tail());
	}

	/**
	 * Return the end of the log, for error messages.
	 * @return up to the last 8 KiB of the log, from the first whole line
	 */
	String tail() {
		try (SeekableByteChannel channel = Files.newByteChannel(this.log)) {
			long start = Math.max(0, channel.size() - TAIL_BYTES);
			ByteBuffer buffer = ByteBuffer.allocate((int) (channel.size() - start));
			channel.position(start);
			while (buffer.hasRemaining()) {
				if (channel.read(buffer) < 0) {
					break;
				}
			}
			String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
			int firstLine = text.indexOf('\n');
			return (start > 0 && firstLine >= 0) ? text.substring(firstLine + 1) : text;
		}
		catch (IOException ex) {
			// the message this goes into is about another failure; do not hide it
			return "(could not read the log: " + ex + ")";
		}
	}

}
