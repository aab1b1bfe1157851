package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.jspecify.annotations.Nullable;
import org.opentest4j.AssertionFailedError;

import dev.kubereconciler.reconcile.Request;

/**
 * Assertions on how often a controller reconciled one key, from what a
 * {@link ReconcileRecorder} heard: checked once, or awaited after {@link #eventually()}.
 */
public final class ReconcileAssert {

	private final ReconcileRecorder recorder;

	private final String controller;

	private final Request request;

	private final @Nullable Duration timeout;

	ReconcileAssert(ReconcileRecorder recorder, String controller, Request request, @Nullable Duration timeout) {
		this.recorder = Objects.requireNonNull(recorder, "recorder must not be null");
		this.controller = Objects.requireNonNull(controller, "controller must not be null");
		this.request = Objects.requireNonNull(request, "request must not be null");
		this.timeout = timeout;
	}

	/**
	 * Wait for the assertions that follow, up to
	 * {@link KubernetesAssertions#DEFAULT_TIMEOUT 30 seconds}.
	 * @return assertions that wait
	 */
	public ReconcileAssert eventually() {
		return eventually(KubernetesAssertions.DEFAULT_TIMEOUT);
	}

	/**
	 * Wait for the assertions that follow, up to the given time.
	 * @param timeout how long each assertion waits
	 * @return assertions that wait
	 */
	public ReconcileAssert eventually(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout must not be null");
		return new ReconcileAssert(this.recorder, this.controller, this.request, timeout);
	}

	/**
	 * Assert that the controller finished exactly this many reconciles of the key.
	 * Waiting, it fails as soon as there are more. Follow it with
	 * {@link #isQuietFor(Duration)} to prove that no more come.
	 * @param times the number of reconciles
	 * @return the reconciles
	 */
	public List<RecordedReconcile> hasReconciled(int times) {
		String expectation = "Expected controller '" + this.controller + "' to have reconciled " + this.request + " "
				+ times(times);
		return Check.until(this.timeout, () -> {
			List<RecordedReconcile> reconciles = this.recorder.reconciles(this.controller, this.request);
			if (reconciles.size() == times) {
				return Check.passed(reconciles);
			}
			String failure = expectation + ", but it reconciled it " + times(reconciles.size()) + ": " + reconciles
					+ ".\n" + this.recorder.describe(this.controller);
			if (reconciles.size() > times) {
				// more never becomes fewer: waiting on would only hide the answer
				throw new AssertionFailedError(failure);
			}
			return Check.failed(failure);
		});
	}

	/**
	 * Assert that the controller starts no reconcile of the key for a while, which a hot
	 * loop (a reconcile whose own writes trigger the next one) fails. The window is real
	 * time: the assertion takes that long when it passes, and fails at the first
	 * reconcile.
	 * @param window how long the key must stay quiet
	 */
	public void isQuietFor(Duration window) {
		Objects.requireNonNull(window, "window must not be null");
		int startedBefore = this.recorder.started(this.controller, this.request);
		int finishedBefore = this.recorder.reconciles(this.controller, this.request).size();
		try {
			Awaitility.await()
				.during(window)
				// the failFast check ends the wait at the first reconcile; atMost only
				// has to leave room for the window's last poll
				.atMost(window.plus(Duration.ofSeconds(5)))
				.pollInterval(Check.POLL_INTERVAL)
				.failFast(() -> this.recorder.started(this.controller, this.request) != startedBefore)
				.until(() -> true);
		}
		catch (TerminalFailureException | ConditionTimeoutException ex) {
			List<RecordedReconcile> reconciles = this.recorder.reconciles(this.controller, this.request);
			List<RecordedReconcile> since = reconciles.subList(Math.min(finishedBefore, reconciles.size()),
					reconciles.size());
			int started = this.recorder.started(this.controller, this.request) - startedBefore;
			throw new AssertionFailedError("Expected controller '" + this.controller + "' to leave " + this.request
					+ " alone for " + window.toMillis() + " ms, but it started " + started + " more "
					+ ((started == 1) ? "reconcile" : "reconciles") + " of it (a hot loop?); finished since: " + since
					+ ".", ex);
		}
	}

	private static String times(int times) {
		return (times == 1) ? "once" : times + " times";
	}

}
