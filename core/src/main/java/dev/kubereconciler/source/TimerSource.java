package dev.kubereconciler.source;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * A source that, once per period, reconciles every cached primary object or the keys a
 * function returns. Its first tick is one period after the start, which already
 * reconciles every cached object.
 */
public final class TimerSource extends PeriodicSource {

	private final @Nullable Callable<? extends Collection<Request>> keys;

	private final RateLimiter<String> rateLimiter;

	TimerSource(String name, Duration period, @Nullable Callable<? extends Collection<Request>> keys,
			@Nullable RateLimiter<String> rateLimiter) {
		super(name, period);
		this.keys = keys;
		this.rateLimiter = (rateLimiter != null) ? rateLimiter : defaultLimiter();
	}

	/**
	 * Return a copy of this source whose failed key functions wait for another limiter.
	 * Default: exponential from 1 second to 5 minutes.
	 * @param rateLimiter the limiter
	 * @return the copy
	 */
	public TimerSource rateLimiter(RateLimiter<String> rateLimiter) {
		return new TimerSource(name(), period(), this.keys, rateLimiter);
	}

	@Override
	public TimerSource withPeriod(Duration period) {
		return new TimerSource(name(), period, this.keys, this.rateLimiter);
	}

	@Override
	public String kind() {
		return "timer";
	}

	@Override
	Duration initialDelay() {
		return period();
	}

	@Override
	void reset() {
	}

	@Override
	Duration poll(SourceContext context) {
		Collection<Request> due;
		try {
			due = (this.keys != null)
					? Objects.requireNonNull(this.keys.call(),
							() -> "Source '" + name() + "' returned null keys; return an empty collection for none")
					: context.cachedKeys().stream().filter(context::owns).toList();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return period();
		}
		catch (Exception ex) {
			Duration retry = this.rateLimiter.when(name());
			logFailure(name(), context, null, retry, ex);
			return retry;
		}
		this.rateLimiter.forget(name());
		due.forEach(context::add);
		return period();
	}

}
