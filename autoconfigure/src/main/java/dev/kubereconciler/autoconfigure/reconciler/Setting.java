package dev.kubereconciler.autoconfigure.reconciler;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * A controller setting's value and where it came from, chosen by the one precedence of
 * the auto-configuration: a property, then the annotation or the definition bean, then a
 * default.
 *
 * <p>
 * In the style of Spring Boot's {@code PropertyMapper}, one line per candidate:
 * <pre class="code">
 * int workers = Setting.from(prefix + ".max-concurrent-reconciles", overrides.getMaxConcurrentReconciles())
 *     .or("@Reconciler(maxConcurrentReconciles) of " + method, annotation.maxConcurrentReconciles(), (n) -&gt; n != -1)
 *     .orElse(DEFAULTS + "max-concurrent-reconciles", defaults.getMaxConcurrentReconciles())
 *     .to(ControllerDefinitionResolver::requireWorkers);
 * </pre> The origin is what an error message names: a property, such as
 * {@code kube-reconciler.controllers.widget.reconcile-timeout}, or the annotation
 * attribute or bean the value came from.
 *
 * @param <T> the type of the value
 * @param value the value
 * @param origin where the value came from
 */
record Setting<T>(T value, String origin) {

	/**
	 * Start with the candidate that wins over all others, set when not {@code null}.
	 * @param <T> the type of the value
	 * @param origin where the value comes from
	 * @param value the value, or {@code null} when it is not set
	 * @return the choice so far
	 */
	static <T> Choice<T> from(String origin, @Nullable T value) {
		return new Choice<T>().or(origin, value);
	}

	/**
	 * Start with a candidate that is computed, from its origin, only when it is set and
	 * wins.
	 * @param <T> the type of the value
	 * @param set whether the candidate is set
	 * @param origin where the value comes from
	 * @param value computes the value from its origin
	 * @return the choice so far
	 */
	static <T> Choice<T> fromIf(boolean set, String origin, Function<String, ? extends T> value) {
		return new Choice<T>().orIf(set, origin, value);
	}

	/**
	 * Check or convert the value, naming its origin when it cannot work, as
	 * {@code PropertyDurations.requirePositive(property, value)} does.
	 * @param <R> the type of the result
	 * @param check takes the origin and the value
	 * @return what the check returns
	 */
	<R> R to(BiFunction<String, ? super T, R> check) {
		return check.apply(this.origin, this.value);
	}

	/**
	 * The candidates of a setting so far, the first one set winning.
	 *
	 * @param <T> the type of the value
	 */
	static final class Choice<T> {

		private @Nullable Setting<T> chosen;

		private Choice() {
		}

		/**
		 * The next candidate, set when not {@code null}.
		 * @param origin where the value comes from
		 * @param value the value, or {@code null} when it is not set
		 * @return this choice
		 */
		Choice<T> or(String origin, @Nullable T value) {
			if (this.chosen == null && value != null) {
				this.chosen = new Setting<>(value, origin);
			}
			return this;
		}

		/**
		 * The next candidate, set when it passes a test, as an annotation attribute is
		 * when it differs from its default.
		 * @param origin where the value comes from
		 * @param value the value
		 * @param set whether the value is set
		 * @return this choice
		 */
		Choice<T> or(String origin, T value, Predicate<? super T> set) {
			return or(origin, set.test(value) ? value : null);
		}

		/**
		 * The next candidate, computed from its origin only when it is set and wins.
		 * @param set whether the candidate is set
		 * @param origin where the value comes from
		 * @param value computes the value from its origin
		 * @return this choice
		 */
		Choice<T> orIf(boolean set, String origin, Function<String, ? extends T> value) {
			if (this.chosen == null && set) {
				this.chosen = new Setting<>(value.apply(origin), origin);
			}
			return this;
		}

		/**
		 * End with the default.
		 * @param origin where the default comes from
		 * @param value the default
		 * @return the winning setting
		 */
		Setting<T> orElse(String origin, T value) {
			return (this.chosen != null) ? this.chosen : new Setting<>(value, origin);
		}

		/**
		 * End with a default computed from its origin only when no other candidate is
		 * set.
		 * @param origin where the default comes from
		 * @param value computes the default from its origin
		 * @return the winning setting
		 */
		Setting<T> orElseGet(String origin, Function<String, ? extends T> value) {
			return (this.chosen != null) ? this.chosen : new Setting<>(value.apply(origin), origin);
		}

		/**
		 * End without a default.
		 * @return the winning setting, or {@code null} when no candidate is set
		 */
		@Nullable Setting<T> orNone() {
			return this.chosen;
		}

	}

}
