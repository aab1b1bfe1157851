package dev.kubereconciler.source;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.time.DelayScheduler.Cancellable;

/**
 * A source that runs on a period: the built-in polling, per-object polling and timer
 * sources. The period runs from the end of one poll to the start of the next, so that a
 * slow poll never overlaps the next one, and a failed poll is retried after its limiter's
 * delay instead.
 */
public abstract sealed class PeriodicSource implements Source
		permits PollingSource, PerObjectPollingSource, TimerSource {

	/** Base delay of the default limiter of failed polls. */
	public static final Duration DEFAULT_FAILURE_BASE_DELAY = Duration.ofSeconds(1);

	/** Longest delay of the default limiter of failed polls. */
	public static final Duration DEFAULT_FAILURE_MAX_DELAY = Duration.ofMinutes(5);

	static final Logger logger = LoggerFactory.getLogger(PeriodicSource.class);

	private final String name;

	private final Duration period;

	private final Object monitor = new Object();

	private @Nullable Run run;

	PeriodicSource(String name, Duration period) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("A source's name must not be empty");
		}
		Objects.requireNonNull(period, () -> "Source '" + name + "' must have a period");
		if (period.isNegative() || period.isZero()) {
			throw new IllegalArgumentException("Source '" + name + "' period must be positive, was " + period);
		}
		this.name = name;
		this.period = period;
	}

	static <T> RateLimiter<T> defaultLimiter() {
		return RateLimiters.exponential(DEFAULT_FAILURE_BASE_DELAY, DEFAULT_FAILURE_MAX_DELAY);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Duration period() {
		return this.period;
	}

	/**
	 * Return a copy of this source with another period, as a property sets it.
	 * @param period the period
	 * @return the copy
	 */
	public abstract PeriodicSource withPeriod(Duration period);

	@Override
	public final void start(SourceContext context) {
		synchronized (this.monitor) {
			if (this.run != null) {
				throw new IllegalStateException("Source '" + this.name + "' already runs in controller '"
						+ this.run.context.controller() + "'; give each controller a source instance of its own");
			}
			reset();
			Run started = new Run(context);
			this.run = started;
			started.schedule(initialDelay(), started::tick);
		}
	}

	@Override
	public final void stop() {
		synchronized (this.monitor) {
			if (this.run != null) {
				this.run.stop();
				this.run = null;
			}
		}
	}

	/**
	 * Return the delay from the start to the first poll: none for a polling source, whose
	 * first poll is the state later polls are compared with.
	 * @return the delay
	 */
	Duration initialDelay() {
		return Duration.ZERO;
	}

	/**
	 * Forget what earlier runs saw, before a start.
	 */
	abstract void reset();

	/**
	 * Poll once, on the source's own thread.
	 * @param context the running controller's context
	 * @return the delay until the next poll: the period, or a limiter's delay after a
	 * failure
	 */
	abstract Duration poll(SourceContext context);

	/**
	 * Run an action on the source's thread after a delay, unless the source stops first.
	 * @param context the context of the run that asks
	 * @param delay the delay
	 * @param action the action
	 */
	void later(SourceContext context, Duration delay, Runnable action) {
		Run current;
		synchronized (this.monitor) {
			current = this.run;
		}
		if (current != null && current.context == context) {
			current.schedule(delay, action);
		}
	}

	static void logFailure(String source, SourceContext context, @Nullable Object key, Duration retry, Exception ex) {
		logger.warn("Source '{}' of controller '{}' failed to poll{}; polling again in {}", source,
				context.controller(), (key != null) ? " " + key : "", retry, ex);
	}

	private final class Run {

		private final SourceContext context;

		private volatile boolean stopped;

		private @Nullable Cancellable next;

		Run(SourceContext context) {
			this.context = context;
		}

		void tick() {
			if (this.stopped) {
				return;
			}
			Duration delay;
			try {
				delay = poll(this.context);
			}
			catch (RuntimeException ex) {
				delay = period();
				logFailure(PeriodicSource.this.name, this.context, null, delay, ex);
			}
			schedule(delay, this::tick);
		}

		synchronized void schedule(Duration delay, Runnable action) {
			if (this.stopped) {
				return;
			}
			long deadline = this.context.clock().read() + delay.toNanos();
			this.next = this.context.clock().schedule(deadline, () -> execute(action));
		}

		private void execute(Runnable action) {
			if (this.stopped) {
				return;
			}
			try {
				this.context.executor().execute(action);
			}
			catch (RejectedExecutionException ex) {
				// the controller stopped between the check and the hand-over: nothing to
				// run
			}
		}

		synchronized void stop() {
			this.stopped = true;
			if (this.next != null) {
				this.next.cancel();
			}
		}

	}

}
