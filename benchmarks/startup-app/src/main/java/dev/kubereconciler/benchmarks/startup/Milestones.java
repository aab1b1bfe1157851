package dev.kubereconciler.benchmarks.startup;

import java.lang.management.ManagementFactory;
import java.time.Instant;

/**
 * Prints the moments of a start-up as {@code startup-milestone NAME EPOCH_MICROS
 * MILLIS_SINCE_PROCESS_START CLASSES_LOADED}, which {@code StartupRounds} reads off
 * standard output.
 *
 * <p>
 * The driver measures from the instant it started the process, which it records itself;
 * the process's own start instant (from {@code /proc}, at the kernel's 10 ms tick) is
 * printed beside it so that a run made by hand reads the same figure. The classes are
 * those the JVM loaded so far, unloaded ones included.
 */
public final class Milestones {

	/** What every milestone line starts with. */
	public static final String PREFIX = "startup-milestone ";

	private Milestones() {
	}

	/**
	 * Print that a milestone was reached now.
	 * @param name the milestone
	 */
	public static void reached(String name) {
		Instant now = Instant.now();
		long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
		long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		long sinceStart = ProcessHandle.current()
			.info()
			.startInstant()
			.map((start) -> (micros - start.toEpochMilli() * 1_000L) / 1_000L)
			.orElse(-1L);
		System.out.println(PREFIX + name + " " + micros + " " + sinceStart + " " + classes);
	}

}
