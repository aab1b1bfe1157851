package dev.kubereconciler.source;

import org.jspecify.annotations.Nullable;

/**
 * Reads the external state of one primary object for a {@link PerObjectPollingSource}.
 *
 * @param <T> the primary type
 */
@FunctionalInterface
public interface ObjectPoll<T> {

	/**
	 * Return the object's external state; two states are the same when they are
	 * {@code equals}.
	 * @param object the cached primary object, not to be changed
	 * @return the state, or {@code null} for none
	 * @throws Exception if the state cannot be read now; the poll is retried through the
	 * source's limiter
	 */
	@Nullable Object poll(T object) throws Exception;

}
