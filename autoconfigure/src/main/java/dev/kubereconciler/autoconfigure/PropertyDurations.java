package dev.kubereconciler.autoconfigure;

import java.time.Duration;

/**
 * Checks on {@link Duration} properties that every duration of a manager or controller
 * shares: not negative, and short enough to count in nanoseconds (about 292 years), as
 * timers do.
 */
public final class PropertyDurations {

	private PropertyDurations() {
	}

	public static Duration requireNotNegative(String property, Duration value) {
		if (value == null || value.isNegative()) {
			throw new InvalidPropertyException(property, value, "this duration cannot be negative",
					"Set " + property + " to 0 or a positive duration such as 30s.");
		}
		return requireCountable(property, value);
	}

	public static Duration requirePositive(String property, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidPropertyException(property, value, "this duration must be greater than 0",
					"Set " + property + " to a positive duration such as 30s.");
		}
		return requireCountable(property, value);
	}

	private static Duration requireCountable(String property, Duration value) {
		try {
			value.toNanos();
			return value;
		}
		catch (ArithmeticException ex) {
			throw new InvalidPropertyException(property, value, "this duration is too long to time in nanoseconds",
					"Set " + property + " to at most 292 years; use 0 where the property allows it to mean never.");
		}
	}

}
