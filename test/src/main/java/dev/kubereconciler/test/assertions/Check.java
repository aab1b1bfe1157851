package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.opentest4j.AssertionFailedError;

/**
 * The result of one check of an assertion: the value it passed with, or why it failed
 * this time.
 *
 * @param <T> the type of the value
 * @param value the value, when passed
 * @param failure the failure message, or {@code null} when passed
 */
record Check<T>(@Nullable T value, @Nullable String failure) {

	/** How often a check is repeated while waiting. */
	static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	static <T> Check<T> passed(T value) {
		return new Check<>(value, null);
	}

	static <T> Check<T> failed(String failure) {
		return new Check<>(null, failure);
	}

	/**
	 * Repeat a check until it passes, or fail with its last failure message.
	 * @param <T> the type of the value
	 * @param timeout how long to wait, or {@code null} to check once
	 * @param check the check
	 * @return the value the check passed with
	 * @throws AssertionFailedError if it did not pass in time
	 */
	static <T> T until(@Nullable Duration timeout, Supplier<Check<T>> check) {
		if (timeout == null) {
			Check<T> once = check.get();
			if (once.failure() != null) {
				throw new AssertionFailedError(once.failure());
			}
			return Objects.requireNonNull(once.value());
		}
		AtomicReference<Check<T>> last = new AtomicReference<>();
		try {
			Awaitility.await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(POLL_INTERVAL).until(() -> {
				Check<T> result = check.get();
				last.set(result);
				return result.failure() == null;
			});
		}
		catch (ConditionTimeoutException ex) {
			Check<T> result = last.get();
			String failure = (result != null) ? result.failure() : "it was never checked";
			throw new AssertionFailedError("After " + timeout.toMillis() + " ms: " + failure);
		}
		// Awaitility returned normally, so the condition ran and passed at least once
		Check<T> passed = Objects.requireNonNull(last.get());
		return Objects.requireNonNull(passed.value());
	}

}
