package dev.kubereconciler.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The summary of the start-up rounds: the median of each configuration's figures, and the
 * best of ours against the plain jar (target: at most 0.4 times) and against Java
 * Operator SDK.
 */
final class StartupReport {

	/** The target: the best configuration at most this times the plain jar. */
	static final double TARGET = 0.4;

	private final int rounds;

	private final int objects;

	StartupReport(int rounds, int objects) {
		this.rounds = rounds;
		this.objects = objects;
	}

	void print(Map<StartupConfiguration, List<StartupRounds.Launch>> launches) {
		System.out.printf("== medians of %d round(s), ms from the launch of the JVM%n", this.rounds);
		System.out.printf(Locale.ROOT, "%-20s %-58s %8s %10s %12s  %s%n", "configuration", "", "main", "refreshed",
				"last first", "rounds (last first reconcile)");
		StartupConfiguration plain = null;
		StartupConfiguration best = null;
		StartupConfiguration josdk = null;
		double bestMedian = Double.NaN;
		for (Map.Entry<StartupConfiguration, List<StartupRounds.Launch>> entry : launches.entrySet()) {
			StartupConfiguration configuration = entry.getKey();
			List<StartupRounds.Launch> complete = entry.getValue()
				.stream()
				.filter(StartupRounds.Launch::isComplete)
				.toList();
			if (complete.size() < entry.getValue().size()) {
				System.out.printf(Locale.ROOT, "%-20s %-58s FAILED in %d of %d round(s)%n", configuration.name(),
						configuration.label(), entry.getValue().size() - complete.size(), entry.getValue().size());
				continue;
			}
			double last = median(complete, "last-first-reconcile");
			System.out.printf(Locale.ROOT, "%-20s %-58s %8.1f %10.1f %12.1f  %s  reconciled %d of %d%n",
					configuration.name(), configuration.label(), median(complete, "main"),
					median(complete, "refreshed"), last, lasts(complete), this.objects, this.objects);
			if (configuration.name().equals("plain")) {
				plain = configuration;
			}
			if (!configuration.ours()) {
				josdk = configuration;
			}
			else if (best == null || last < bestMedian) {
				best = configuration;
				bestMedian = last;
			}
		}
		printRatios(launches, plain, best, josdk);
	}

	private void printRatios(Map<StartupConfiguration, List<StartupRounds.Launch>> launches,
			@Nullable StartupConfiguration plain, @Nullable StartupConfiguration best,
			@Nullable StartupConfiguration josdk) {
		if (best == null) {
			return;
		}
		double bestLast = median(launches.get(best), "last-first-reconcile");
		if (plain != null) {
			double plainLast = median(launches.get(plain), "last-first-reconcile");
			double ratio = bestLast / plainLast;
			System.out.printf(Locale.ROOT,
					"best of ours: %s (%s), %.1f ms = %.2fx the plain jar's %.1f ms; target <= %.1fx: %s%n",
					best.name(), best.label(), bestLast, ratio, plainLast, TARGET,
					(ratio <= TARGET) ? "MET" : "MISSED");
			if (josdk != null) {
				double josdkLast = median(launches.get(josdk), "last-first-reconcile");
				System.out.printf(Locale.ROOT,
						"reference: %s, %.1f ms; the plain jar takes %.2fx its time, the best of ours %.2fx%n",
						josdk.label(), josdkLast, plainLast / josdkLast, bestLast / josdkLast);
			}
		}
	}

	private static List<String> lasts(List<StartupRounds.Launch> launches) {
		return launches.stream()
			.map((launch) -> String.format(Locale.ROOT, "%.1f", launch.millis("last-first-reconcile")))
			.toList();
	}

	static double median(List<StartupRounds.Launch> launches, String milestone) {
		List<Double> values = new ArrayList<>();
		launches.forEach((launch) -> values.add(launch.millis(milestone)));
		Collections.sort(values);
		int middle = values.size() / 2;
		return (values.size() % 2 == 1) ? values.get(middle) : (values.get(middle - 1) + values.get(middle)) / 2;
	}

}
