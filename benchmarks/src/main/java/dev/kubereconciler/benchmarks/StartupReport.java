package dev.kubereconciler.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The summary of the start-up rounds: the median of each configuration's milestones and
 * of the classes loaded at each, Spring's start-up steps of ours, and the ratios the
 * issues set targets for: the best of ours against the plain jar (at most 0.4 times) and
 * against Java Operator SDK (at most 0.7 times), the plain jar against Java Operator SDK
 * (at most 1.2 times) and against the bare Spring Boot application's refresh and list (at
 * most 1.3 times).
 */
final class StartupReport {

	/** Issue 27's target: the best configuration at most this times the plain jar. */
	static final double TARGET = 0.4;

	/** Issue 43's target: the plain jar at most this times Java Operator SDK. */
	static final double PLAIN_TO_JOSDK = 1.2;

	/** Issue 43's target: the plain jar at most this times the bare refresh and list. */
	static final double PLAIN_TO_BARE = 1.3;

	/** Issue 43's target: the best configuration at most this times Java Operator SDK. */
	static final double BEST_TO_JOSDK = 0.7;

	/** The milestones in the order a controller reaches them. */
	static final List<String> MILESTONES = List.of("main", "beans", "list-sent", "listed", "synced", "refreshed",
			"first-first-reconcile", "last-first-reconcile");

	private static final int STEPS_SHOWN = 30;

	private final int rounds;

	private final int objects;

	StartupReport(int rounds, int objects) {
		this.rounds = rounds;
		this.objects = objects;
	}

	void print(Map<StartupConfiguration, List<StartupRounds.Launch>> launches) {
		System.out.printf("== medians of %d round(s), ms from the launch of the JVM (classes loaded below)%n",
				this.rounds);
		System.out.printf(Locale.ROOT, "%-20s", "configuration");
		MILESTONES.forEach((milestone) -> System.out.printf(Locale.ROOT, " %10.10s", milestone));
		System.out.printf("  rounds (end)%n");
		StartupConfiguration best = null;
		double bestMedian = Double.NaN;
		for (Map.Entry<StartupConfiguration, List<StartupRounds.Launch>> entry : launches.entrySet()) {
			StartupConfiguration configuration = entry.getKey();
			List<StartupRounds.Launch> complete = complete(configuration, entry.getValue());
			if (complete.size() < entry.getValue().size()) {
				System.out.printf(Locale.ROOT, "%-20s FAILED in %d of %d round(s)%n", configuration.name(),
						entry.getValue().size() - complete.size(), entry.getValue().size());
				continue;
			}
			printMedians(configuration, complete);
			double end = median(complete, configuration.end());
			if (configuration.ours() && (best == null || end < bestMedian)) {
				best = configuration;
				bestMedian = end;
			}
		}
		printSteps(launches);
		printRatios(launches, best);
	}

	private void printMedians(StartupConfiguration configuration, List<StartupRounds.Launch> complete) {
		System.out.printf(Locale.ROOT, "%-20s", configuration.name());
		for (String milestone : MILESTONES) {
			String name = (milestone.equals(StartupConfiguration.LAST)) ? configuration.end() : milestone;
			double median = median(complete, name);
			System.out.printf(Locale.ROOT, Double.isNaN(median) ? " %10s" : " %10.1f",
					Double.isNaN(median) ? "-" : median);
		}
		System.out.printf(Locale.ROOT, "  %s  (%s)%n", ends(configuration, complete), configuration.label());
		System.out.printf(Locale.ROOT, "%-20s", "  classes");
		for (String milestone : MILESTONES) {
			String name = (milestone.equals(StartupConfiguration.LAST)) ? configuration.end() : milestone;
			double median = medianClasses(complete, name);
			System.out.printf(Locale.ROOT, Double.isNaN(median) ? " %10s" : " %10.0f",
					Double.isNaN(median) ? "-" : median);
		}
		System.out.println();
	}

	// Spring's steps of each configuration that recorded them, in ms, the largest in the
	// plain jar first
	private void printSteps(Map<StartupConfiguration, List<StartupRounds.Launch>> launches) {
		List<StartupConfiguration> recorded = launches.keySet()
			.stream()
			.filter((configuration) -> launches.get(configuration)
				.stream()
				.anyMatch((launch) -> !launch.steps().isEmpty()))
			.toList();
		if (recorded.isEmpty()) {
			return;
		}
		Set<String> names = new LinkedHashSet<>();
		recorded.forEach((configuration) -> launches.get(configuration)
			.forEach((launch) -> names.addAll(launch.steps().keySet())));
		List<StartupRounds.Launch> first = launches.get(recorded.get(0));
		List<String> sorted = new ArrayList<>(names);
		sorted.sort(Comparator.comparingDouble((String name) -> -medianStep(first, name)));
		System.out.printf(Locale.ROOT,
				"== Spring's start-up steps (BufferingApplicationStartup), medians in ms; a bean's own time, without "
						+ "the beans it asked for%n%-58s",
				"step");
		recorded.forEach((configuration) -> System.out.printf(Locale.ROOT, " %12.12s", configuration.name()));
		System.out.println();
		for (String name : sorted.subList(0, Math.min(STEPS_SHOWN, sorted.size()))) {
			System.out.printf(Locale.ROOT, "%-58.58s", name);
			recorded.forEach((configuration) -> System.out.printf(Locale.ROOT, " %12.1f",
					medianStep(launches.get(configuration), name)));
			System.out.println();
		}
	}

	private void printRatios(Map<StartupConfiguration, List<StartupRounds.Launch>> launches,
			@Nullable StartupConfiguration best) {
		StartupConfiguration plain = find(launches, "plain");
		StartupConfiguration josdk = find(launches, "josdk");
		StartupConfiguration bare = find(launches, "bare");
		double plainLast = (plain != null) ? median(launches.get(plain), plain.end()) : Double.NaN;
		double josdkLast = (josdk != null) ? median(launches.get(josdk), josdk.end()) : Double.NaN;
		double bareListed = (bare != null) ? median(launches.get(bare), bare.end()) : Double.NaN;
		if (best != null) {
			double bestLast = median(launches.get(best), best.end());
			ratio("best of ours (" + best.name() + ") / plain jar", bestLast, plainLast, TARGET);
			ratio("best of ours (" + best.name() + ") / JOSDK", bestLast, josdkLast, BEST_TO_JOSDK);
		}
		ratio("plain jar / JOSDK", plainLast, josdkLast, PLAIN_TO_JOSDK);
		ratio("plain jar / bare refresh + list", plainLast, bareListed, PLAIN_TO_BARE);
	}

	private static void ratio(String what, double value, double reference, double target) {
		if (Double.isNaN(value) || Double.isNaN(reference)) {
			return;
		}
		double ratio = value / reference;
		System.out.printf(Locale.ROOT, "%-48s %8.1f / %8.1f ms = %.2fx; target <= %.1fx: %s%n", what, value, reference,
				ratio, target, (ratio <= target) ? "MET" : "MISSED");
	}

	private static @Nullable StartupConfiguration find(Map<StartupConfiguration, List<StartupRounds.Launch>> launches,
			String name) {
		return launches.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().name().equals(name))
			.filter((entry) -> complete(entry.getKey(), entry.getValue()).size() == entry.getValue().size())
			.map(Map.Entry::getKey)
			.findFirst()
			.orElse(null);
	}

	private static List<StartupRounds.Launch> complete(StartupConfiguration configuration,
			List<StartupRounds.Launch> launches) {
		return launches.stream().filter((launch) -> launch.isComplete(configuration.end())).toList();
	}

	private static List<String> ends(StartupConfiguration configuration, List<StartupRounds.Launch> launches) {
		return launches.stream()
			.map((launch) -> String.format(Locale.ROOT, "%.1f", launch.millis(configuration.end())))
			.toList();
	}

	static double median(List<StartupRounds.Launch> launches, String milestone) {
		List<Double> values = new ArrayList<>();
		launches.forEach((launch) -> values.add(launch.millis(milestone)));
		return median(values);
	}

	private static double medianClasses(List<StartupRounds.Launch> launches, String milestone) {
		List<Double> values = new ArrayList<>();
		launches.forEach((launch) -> {
			long classes = launch.classes(milestone);
			values.add((classes >= 0) ? classes : Double.NaN);
		});
		return median(values);
	}

	private static double medianStep(List<StartupRounds.Launch> launches, String step) {
		List<Double> values = new ArrayList<>();
		launches.forEach((launch) -> values.add(launch.steps().getOrDefault(step, 0L) / 1e3));
		return median(values);
	}

	private static double median(List<Double> values) {
		if (values.isEmpty() || values.stream().anyMatch((value) -> Double.isNaN(value))) {
			return Double.NaN;
		}
		Collections.sort(values);
		int middle = values.size() / 2;
		return (values.size() % 2 == 1) ? values.get(middle) : (values.get(middle - 1) + values.get(middle)) / 2;
	}

}
