package dev.kubereconciler.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One injected fault and how soon the deployment recovered from it.
 *
 * @param kind the kind of fault
 * @param at when it started
 * @param target what it hit
 * @param detail what exactly was done
 * @param bounds what had to happen, within what time
 */
record SoakOutcome(String kind, Instant at, String target, String detail, List<Bound> bounds) {

	boolean met() {
		return this.bounds.stream().allMatch(Bound::met);
	}

	/**
	 * A recovery bound.
	 *
	 * @param what what had to happen
	 * @param limit within what time
	 * @param took how long it took, {@code null} if it did not happen
	 */
	record Bound(String what, Duration limit, @Nullable Duration took) {

		boolean met() {
			return this.took != null && this.took.compareTo(this.limit) <= 0;
		}

		@Override
		public String toString() {
			return this.what + " within " + seconds(this.limit) + ": "
					+ ((this.took != null) ? seconds(this.took) : "never") + (met() ? "" : " (MISSED)");
		}

		private static String seconds(Duration duration) {
			return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
		}

	}

}
