package dev.kubereconciler.internal.controller;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.internal.queue.ReconcileQueue;
import dev.kubereconciler.ratelimit.RateLimiter.Decision;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Acts on how a reconcile ended, row by row as controller-runtime's
 * {@code reconcileHandler}: errors and {@code requeue()} go through the rate limiter,
 * {@code requeueAfter(d)} forgets the backoff and waits exactly {@code d}, success and
 * terminal errors forget it.
 */
final class ResultHandler {

	private static final Logger logger = LoggerFactory.getLogger(WorkQueueController.class);

	private final String name;

	private final Duration reconcileTimeout;

	private final ControllerListener listener;

	private final ErrorTraces traces = new ErrorTraces();

	ResultHandler(String name, Duration reconcileTimeout, ControllerListener listener) {
		this.name = name;
		this.reconcileTimeout = reconcileTimeout;
		this.listener = listener;
	}

	static ReconcileOutcome classify(@Nullable Result result, @Nullable Throwable error) {
		if (TerminalReconcileException.isTerminal(error)) {
			return ReconcileOutcome.TERMINAL_ERROR;
		}
		if (error instanceof Error) {
			return ReconcileOutcome.PANIC;
		}
		if (error != null) {
			return ReconcileOutcome.ERROR;
		}
		// a reconcile that returns null has a NullResultException
		Objects.requireNonNull(result);
		if (result.isRequeue()) {
			return ReconcileOutcome.REQUEUE;
		}
		return result.getRequeueAfter().isZero() ? ReconcileOutcome.SUCCESS : ReconcileOutcome.REQUEUE_AFTER;
	}

	/**
	 * Act on how a reconcile ended; a requeue keeps the priority the key was taken with
	 * unless the result sets one, as controller-runtime's {@code reconcileHandler} does.
	 * @param queue the queue
	 * @param request the key
	 * @param takenPriority the priority the key was taken at
	 * @param outcome what the reconcile returned or threw; it decides the queue action
	 * @param timedOut whether the reconcile ran past its timeout, which is reported as
	 * the outcome but does not override what the reconcile returned
	 * @param result the result, if any
	 * @param error the error, if any
	 * @param nanos how long the reconcile ran
	 */
	void handle(ReconcileQueue<Request> queue, Request request, int takenPriority, ReconcileOutcome outcome,
			boolean timedOut, @Nullable Result result, @Nullable Throwable error, long nanos) {
		int priority = (result != null) ? result.getPriority().orElse(takenPriority) : takenPriority;
		switch (outcome) {
			case SUCCESS -> {
				queue.forget(request);
				this.traces.forget(request);
			}
			case REQUEUE_AFTER -> {
				queue.forget(request);
				this.traces.forget(request);
				queue.addAfter(request, Objects.requireNonNull(result).getRequeueAfter(), Trigger.REQUEUE_AFTER,
						priority);
			}
			case TERMINAL_ERROR -> {
				queue.forget(request);
				this.traces.forget(request);
				logger.error("Reconcile of {} by controller '{}' failed terminally; not requeued", request, this.name,
						error);
			}
			default -> {
				Decision decision = queue.addRateLimited(request, priority);
				logRetry(request, timedOut ? ReconcileOutcome.TIMEOUT : outcome, error, decision.delay());
				this.listener.limiterDelayed(this.name, request, Trigger.RETRY, decision.source(), decision.delay());
			}
		}
		if (timedOut && (outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER
				|| outcome == ReconcileOutcome.TERMINAL_ERROR)) {
			logger.warn("Reconcile of {} by controller '{}' ran past its timeout of {} and then returned {}", request,
					this.name, this.reconcileTimeout, outcome);
		}
		this.listener.reconcileFinished(this.name, request, timedOut ? ReconcileOutcome.TIMEOUT : outcome, nanos,
				error);
	}

	private void logRetry(Request request, ReconcileOutcome outcome, @Nullable Throwable error, Duration delay) {
		if (outcome == ReconcileOutcome.REQUEUE) {
			logger.debug("Controller '{}' requeued {} after {}", this.name, request, delay);
		}
		else if (outcome == ReconcileOutcome.TIMEOUT) {
			logger.warn("Reconcile of {} by controller '{}' ran past its timeout of {}; retrying in {}", request,
					this.name, this.reconcileTimeout, delay);
		}
		else if (error instanceof NullResultException) {
			logger.error("Reconciler of controller '{}' returned null for {}; treated as an error, retrying in {}. "
					+ "Return Result.done() instead", this.name, request, delay);
		}
		else if (ReconcileOutcome.isConflict(error)) {
			// a stale resourceVersion is routine: the retry reads the newer object
			logger.debug("Reconcile of {} by controller '{}' hit a conflict; retrying in {}", request, this.name, delay,
					error);
		}
		else if (error != null) {
			logFailure(request, error, delay);
		}
	}

	// a broken object fails the same way on every retry: its stack trace once says where,
	// and each retry then says that it still fails and why
	private void logFailure(Request request, Throwable error, Duration delay) {
		String description = ErrorTraces.describe(error);
		if (this.traces.isNew(request, error) || logger.isDebugEnabled()) {
			logger.warn("Reconcile of {} by controller '{}' failed; retrying in {}: {}", request, this.name, delay,
					description, error);
		}
		else {
			logger.warn(
					"Reconcile of {} by controller '{}' failed; retrying in {}: {} (the same error as before; "
							+ "its stack trace was logged at its first failure)",
					request, this.name, delay, description);
		}
	}

	/**
	 * Stands for the error of a reconciler that returned {@code null}.
	 */
	static final class NullResultException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NullResultException() {
			super("Reconciler returned null; return Result.done() instead");
		}

	}

}
