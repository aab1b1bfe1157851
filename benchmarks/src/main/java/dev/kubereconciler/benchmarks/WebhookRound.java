package dev.kubereconciler.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One round of {@link WebhookLatency}: what the creates of one mode measured, and whether
 * the round is a valid measurement (every create succeeded, and the webhook judged every
 * create of a webhook round and none of a baseline round).
 *
 * @param number the round, from 1; 0 for the warm-up
 * @param webhook whether the webhook was registered
 * @param rate the creates per second
 * @param seconds how long the round created
 * @param outcome the creates' latencies and failures
 * @param skipped how many creates at the start are not counted
 * @param seenByWebhook how many of the round's creates the validator judged
 * @param serverNanos the webhook server's own time for each call, sorted
 * @param serverErrors the calls the server answered with another status than 200
 */
record WebhookRound(int number, boolean webhook, int rate, int seconds, OpenLoop.Outcome outcome, int skipped,
		int seenByWebhook, long[] serverNanos, int serverErrors) {

	int count() {
		return this.outcome.latencies().length;
	}

	boolean valid() {
		return this.outcome.failures() == 0 && this.serverErrors == 0
				&& this.seenByWebhook == (this.webhook ? count() : 0);
	}

	String mode() {
		return this.webhook ? "webhook" : "baseline";
	}

	/**
	 * Return a latency of the counted creates, at a quantile.
	 * @param quantile between 0 and 1
	 * @return milliseconds
	 */
	double latency(double quantile) {
		return OpenLoop.millis(this.outcome.sorted(this.skipped), quantile);
	}

	/**
	 * Return the webhook server's own time, at a quantile.
	 * @param quantile between 0 and 1
	 * @return milliseconds, NaN in a baseline round
	 */
	double server(double quantile) {
		return OpenLoop.millis(this.serverNanos, quantile);
	}

	void print() {
		OpenLoop.Outcome outcome = this.outcome;
		double sentRate = (count() > 1) ? (count() - 1) / outcome.seconds() : count();
		System.out.printf(Locale.ROOT,
				"%-8s %d/s for %d s: %d creates (sent at %.1f/s), %d failed, the webhook judged %d of them; "
						+ "%d counted   p50 %7.2f ms   p90 %7.2f ms   p99 %7.2f ms   max %7.2f ms%n",
				mode(), this.rate, this.seconds, count(), sentRate, outcome.failures(), this.seenByWebhook,
				outcome.sorted(this.skipped).length, latency(0.50), latency(0.90), latency(0.99), latency(1.0));
		if (this.webhook) {
			System.out.printf(Locale.ROOT,
					"%-8s webhook server's own time, %d calls for %d creates: p50 %7.2f ms   p99 %7.2f ms   "
							+ "max %7.2f ms, %d answered with an error%n",
					"", this.serverNanos.length, count(), server(0.50), server(0.99), server(1.0), this.serverErrors);
		}
		if (outcome.firstFailure() != null) {
			System.out.println("   FAILED creates; the first: " + outcome.firstFailure());
		}
		if (!valid()) {
			System.out.printf(Locale.ROOT,
					"   INVALID round: %d creates failed, the webhook judged %d of %d creates "
							+ "(expected %d), %d webhook errors%n",
					outcome.failures(), this.seenByWebhook, count(), this.webhook ? count() : 0, this.serverErrors);
		}
	}

	/**
	 * Print the median over the rounds of each mode, what the webhook adds, and the
	 * target.
	 * @param rounds the rounds, warm-up excluded
	 * @param settings the load
	 */
	static void summarize(List<WebhookRound> rounds, WebhookLoad settings) {
		if (rounds.isEmpty()) {
			return;
		}
		List<WebhookRound> baseline = rounds.stream().filter((round) -> !round.webhook()).toList();
		List<WebhookRound> webhook = rounds.stream().filter(WebhookRound::webhook).toList();
		System.out.printf(Locale.ROOT, "== summary: median of %d rounds of each%n", webhook.size());
		for (List<WebhookRound> mode : List.of(baseline, webhook)) {
			System.out.printf(Locale.ROOT, "%-8s p50 %7.2f ms   p99 %7.2f ms   p99 of each round %s%n",
					mode.get(0).mode(), median(mode, (round) -> round.latency(0.50)),
					median(mode, (round) -> round.latency(0.99)),
					mode.stream().map((round) -> String.format(Locale.ROOT, "%.2f", round.latency(0.99))).toList());
		}
		System.out.printf(Locale.ROOT, "webhook server's own time   p50 %7.2f ms   p99 %7.2f ms%n",
				median(webhook, (round) -> round.server(0.50)), median(webhook, (round) -> round.server(0.99)));
		double p99 = median(webhook, (round) -> round.latency(0.99));
		System.out.printf(Locale.ROOT,
				"added by the webhook (median with - median without)   p50 %+7.2f ms   " + "p99 %+7.2f ms%n",
				median(webhook, (round) -> round.latency(0.50)) - median(baseline, (round) -> round.latency(0.50)),
				p99 - median(baseline, (round) -> round.latency(0.99)));
		long invalid = rounds.stream().filter((round) -> !round.valid()).count();
		if (invalid > 0) {
			System.out.printf(Locale.ROOT,
					"INVALID: %d of %d rounds had failed creates or creates the webhook did "
							+ "not judge as expected; these figures do not measure the target%n",
					invalid, rounds.size());
		}
		else if (settings.rate() == 200 && settings.size() == 4096) {
			System.out.printf(Locale.ROOT,
					"target: validating webhook p99 at 200/s with 4 KiB <= %.0f ms: %s " + "(%.2f ms)%n",
					WebhookLatency.TARGET_P99_MILLIS, (p99 <= WebhookLatency.TARGET_P99_MILLIS) ? "MET" : "MISSED",
					p99);
		}
		else {
			System.out.println("target not judged: it is set at 200/s with 4096 bytes");
		}
	}

	private static double median(List<WebhookRound> rounds, ToDoubleFunction<WebhookRound> figure) {
		List<Double> sorted = new ArrayList<>(rounds.stream().map(figure::applyAsDouble).toList());
		Collections.sort(sorted);
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
