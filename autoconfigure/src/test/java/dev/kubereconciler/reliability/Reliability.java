package dev.kubereconciler.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Shared pieces of the reliability suite: the scale of each scenario and the figures each
 * one reports for {@code docs/reliability.md}.
 *
 * <p>
 * Counts are multiplied by the system property {@code kube-reconciler.reliability.scale}
 * (default 1, the counts the scenarios promise), so that a quick local run can use, for
 * example, {@code -Dkube-reconciler.reliability.scale=0.1}.
 */
final class Reliability {

	static final String SCALE_PROPERTY = "kube-reconciler.reliability.scale";

	private Reliability() {
	}

	static int scaled(int count) {
		double scale = Double.parseDouble(System.getProperty(SCALE_PROPERTY, "1"));
		return Math.max(1, (int) Math.round(count * scale));
	}

	/**
	 * Write a scenario's figures as a Markdown section to
	 * {@code target/reliability/<scenario>.md}; {@code ./dev reliability-report} gathers
	 * them.
	 * @param scenario the file name, such as {@code 1-flaky-reconciler}
	 * @param title the section title
	 * @param figures the figures, in order
	 */
	static void report(String scenario, String title, Map<String, Object> figures) {
		report(scenario, title, null, figures);
	}

	/**
	 * Write a scenario's figures as a Markdown section, after a paragraph that explains
	 * them, to {@code target/reliability/<scenario>.md}.
	 * @param scenario the file name, such as {@code 1-flaky-reconciler}
	 * @param title the section title
	 * @param intro Markdown put between the title and the figures, or {@code null}
	 * @param figures the figures, in order
	 */
	static void report(String scenario, String title, String intro, Map<String, Object> figures) {
		StringBuilder section = new StringBuilder("### ").append(title).append("\n\n");
		if (intro != null) {
			section.append(intro.strip()).append("\n\n");
		}
		section.append("| figure | value |\n|---|---|\n");
		figures.forEach((name, value) -> section.append("| ").append(name).append(" | ").append(value).append(" |\n"));
		try {
			Path folder = Path.of("target", "reliability");
			Files.createDirectories(folder);
			Files.writeString(folder.resolve(scenario + ".md"), section.append('\n'));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Run tasks on a few threads, as several clients of the API server would, and wait
	 * for all.
	 * @param threads the number of threads
	 * @param tasks the tasks
	 * @throws Exception the first failure of a task
	 */
	static void inParallel(int threads, List<? extends ThrowingRunnable> tasks) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (ThrowingRunnable task : tasks) {
				futures.add(executor.submit(() -> {
					task.run();
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	/**
	 * A task that may throw.
	 */
	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

}
