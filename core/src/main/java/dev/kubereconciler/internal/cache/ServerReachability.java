package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;

import dev.kubereconciler.time.Sleeper;

/**
 * Whether one cluster's API server answers its informers, and the backoff of their
 * retries while it does not. client-java's reflector lists again one second after a
 * failed list or watch, however many failed before; a lister-watcher made here waits
 * before it lists again, so that the n-th retry in a row comes
 * {@code min(cap, initial * 2^(n-1))} after the failure, as client-go's reflector backs
 * off, and an answer of any kind resets it.
 */
public final class ServerReachability {

	// client-java's Controller runs its reflector again this long after a failed run
	private static final long REFLECTOR_PERIOD_NANOS = Duration.ofSeconds(1).toNanos();

	private final Sleeper sleeper;

	private final long initialNanos;

	private final long capNanos;

	// the lister-watchers whose last call had no answer
	private final Set<Retrying<?, ?>> unanswered = ConcurrentHashMap.newKeySet();

	/**
	 * Create the reachability of one cluster.
	 * @param sleeper waits out the backoff
	 * @param initial the time between the first failure and its retry
	 * @param cap the longest time between two retries
	 */
	public ServerReachability(Sleeper sleeper, Duration initial, Duration cap) {
		if (initial.isNegative() || initial.isZero() || cap.compareTo(initial) < 0) {
			throw new IllegalArgumentException(
					"The backoff must start above zero and its cap must not be below its start, was " + initial
							+ " and " + cap);
		}
		this.sleeper = sleeper;
		this.initialNanos = initial.toNanos();
		this.capNanos = cap.toNanos();
	}

	/**
	 * Return whether the last list or watch of every informer made with this reachability
	 * had an answer from the server, an error status included.
	 * @return {@code false} while a call had none
	 */
	public boolean isReachable() {
		return this.unanswered.isEmpty();
	}

	/**
	 * Return a lister-watcher that backs off its lists after failures and reports whether
	 * the server answered.
	 * @param <T> the model type
	 * @param <L> the list model type
	 * @param delegate the lister-watcher that calls the server
	 * @return the lister-watcher to give the informer
	 */
	public <T extends KubernetesObject, L extends KubernetesListObject> ListerWatcher<T, L> retrying(
			ListerWatcher<T, L> delegate) {
		return new Retrying<>(delegate);
	}

	/**
	 * Return how long a lister-watcher waits before it lists again, on top of the
	 * reflector's second, after the given number of failures in a row.
	 * @param failures the failures in a row
	 * @return the wait in nanoseconds
	 */
	long waitNanos(int failures) {
		if (failures <= 0) {
			return 0;
		}
		long interval = this.initialNanos;
		for (int i = 1; i < failures && interval < this.capNanos; i++) {
			interval = (interval > Long.MAX_VALUE / 2) ? Long.MAX_VALUE : interval * 2;
		}
		return Math.max(0, Math.min(interval, this.capNanos) - REFLECTOR_PERIOD_NANOS);
	}

	static boolean hasNoAnswer(Throwable failure) {
		if (failure instanceof ApiException api && api.getCode() != 0) {
			return false;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IOException) {
				return true;
			}
		}
		return failure instanceof ApiException;
	}

	private final class Retrying<T extends KubernetesObject, L extends KubernetesListObject>
			implements ListerWatcher<T, L> {

		private final ListerWatcher<T, L> delegate;

		// the reflector's thread is the only caller
		private int failures;

		Retrying(ListerWatcher<T, L> delegate) {
			this.delegate = delegate;
		}

		@Override
		public L list(CallGeneratorParams params) throws ApiException {
			try {
				ServerReachability.this.sleeper.sleep(waitNanos(this.failures));
			}
			catch (InterruptedException ex) {
				// the informer stops
				Thread.currentThread().interrupt();
				throw new ApiException(ex);
			}
			try {
				L list = this.delegate.list(params);
				answered();
				return list;
			}
			catch (ApiException | RuntimeException ex) {
				failed(ex);
				throw ex;
			}
		}

		@Override
		public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
			try {
				Watchable<T> watch = this.delegate.watch(params);
				answered();
				return watch;
			}
			catch (ApiException | RuntimeException ex) {
				failed(ex);
				throw ex;
			}
		}

		private void answered() {
			this.failures = 0;
			ServerReachability.this.unanswered.remove(this);
		}

		private void failed(Exception ex) {
			this.failures++;
			if (hasNoAnswer(ex)) {
				ServerReachability.this.unanswered.add(this);
			}
			else {
				ServerReachability.this.unanswered.remove(this);
			}
		}

	}

}
