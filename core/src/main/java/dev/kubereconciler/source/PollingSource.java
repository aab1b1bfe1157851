package dev.kubereconciler.source;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * A source that polls external state on a period and enqueues each key whose state was
 * added, removed or changed ({@code equals}) since the previous poll, as Java Operator
 * SDK's {@code PollingEventSource} does. The first poll after a start only records the
 * state: the start reconciles every cached object anyway. A poll that throws is logged
 * with the source's name and retried after its limiter's delay.
 */
public final class PollingSource extends PeriodicSource {

	private final Callable<? extends Map<Request, ?>> poll;

	private final RateLimiter<String> rateLimiter;

	private volatile @Nullable Map<Request, ?> previous;

	PollingSource(String name, Duration period, Callable<? extends Map<Request, ?>> poll,
			@Nullable RateLimiter<String> rateLimiter) {
		super(name, period);
		this.poll = Objects.requireNonNull(poll, () -> "Source '" + name + "' must have a poll function");
		this.rateLimiter = (rateLimiter != null) ? rateLimiter : defaultLimiter();
	}

	/**
	 * Return a copy of this source whose failed polls wait for another limiter, which is
	 * asked with the source's name. Default: exponential from 1 second to 5 minutes.
	 * @param rateLimiter the limiter
	 * @return the copy
	 */
	public PollingSource rateLimiter(RateLimiter<String> rateLimiter) {
		return new PollingSource(name(), period(), this.poll, rateLimiter);
	}

	/**
	 * Return the limiter of failed polls.
	 * @return the limiter
	 */
	public RateLimiter<String> rateLimiter() {
		return this.rateLimiter;
	}

	@Override
	public PollingSource withPeriod(Duration period) {
		return new PollingSource(name(), period, this.poll, this.rateLimiter);
	}

	@Override
	public String kind() {
		return "polling";
	}

	@Override
	void reset() {
		this.previous = null;
	}

	@Override
	Duration poll(SourceContext context) {
		Map<Request, ?> current;
		try {
			current = new HashMap<>(Objects.requireNonNull(this.poll.call(),
					() -> "Source '" + name() + "' polled null; return an empty map for no state"));
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
		Map<Request, ?> before = this.previous;
		this.previous = current;
		if (before != null) {
			Set<Request> keys = new LinkedHashSet<>(current.keySet());
			keys.addAll(before.keySet());
			for (Request key : keys) {
				if (current.containsKey(key) != before.containsKey(key)
						|| !Objects.equals(current.get(key), before.get(key))) {
					context.add(key);
				}
			}
		}
		return period();
	}

}
