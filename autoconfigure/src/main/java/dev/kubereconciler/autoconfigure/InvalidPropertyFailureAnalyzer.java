package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link InvalidPropertyException}: the property, its value and the fix.
 */
public class InvalidPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPropertyException> {

	private static final List<ChronoUnit> UNITS = List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
			ChronoUnit.SECONDS, ChronoUnit.MILLIS, ChronoUnit.MICROS);

	private static final Duration MOST_NEGATIVE = Duration.ofSeconds(Long.MIN_VALUE);

	private static final List<String> SUFFIXES = List.of("d", "h", "m", "s", "ms", "us");

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPropertyException cause) {
		String description = String.format(
				"Invalid kube-reconciler configuration:%n%n    Property: %s%n    Value: %s%n" + "    Reason: %s%n",
				cause.getProperty(), format(cause.getValue()), cause.getReason());
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

	/**
	 * Render a value the way it is written in YAML, so that {@code 30m} reads as
	 * {@code 30m} and not as {@code PT30M}.
	 * @param value the value
	 * @return the rendering
	 */
	static String format(@Nullable Object value) {
		if (!(value instanceof Duration duration)) {
			return String.valueOf(value);
		}
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.isNegative()) {
			return duration.equals(MOST_NEGATIVE) ? duration.toString() : "-" + format(duration.negated());
		}
		if (duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) {
			// beyond what nanoseconds hold: whole days, hours, minutes or seconds
			for (int i = 0; i < 4; i++) {
				long seconds = UNITS.get(i).getDuration().getSeconds();
				if (duration.getNano() == 0 && duration.getSeconds() % seconds == 0) {
					return (duration.getSeconds() / seconds) + SUFFIXES.get(i);
				}
			}
			return duration.toString();
		}
		for (int i = 0; i < UNITS.size(); i++) {
			long nanos = UNITS.get(i).getDuration().toNanos();
			if (duration.toNanos() % nanos == 0) {
				return (duration.toNanos() / nanos) + SUFFIXES.get(i);
			}
		}
		return duration.toNanos() + "ns";
	}

}
