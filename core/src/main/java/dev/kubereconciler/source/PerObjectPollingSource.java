package dev.kubereconciler.source;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * A source that polls the external state of each cached primary object on a period and
 * enqueues an object when its state changed ({@code equals}) since its previous poll, as
 * Java Operator SDK's {@code PerResourcePollingEventSource} does. A poll that answers
 * {@code null} has nothing to report (nothing provisioned yet). An object's first other
 * answer counts as a change from nothing and enqueues it, as the first fetch of an
 * external resource does in Java Operator SDK: an object created while the controller
 * runs is reconciled on its add event, and a change between that reconcile and its first
 * poll would otherwise never be seen. A poll that throws is logged with the source's name
 * and the key, and that object alone is polled again after its limiter's delay.
 *
 * @param <T> the primary type
 */
public final class PerObjectPollingSource<T extends KubernetesObject> extends PeriodicSource {

	private static final Object NONE = new Object();

	private final Class<T> type;

	private final ObjectPoll<? super T> poll;

	private final RateLimiter<Request> rateLimiter;

	private final Map<Request, Object> states = new ConcurrentHashMap<>();

	private final Set<Request> retrying = ConcurrentHashMap.newKeySet();

	PerObjectPollingSource(String name, Class<T> type, Duration period, ObjectPoll<? super T> poll,
			@Nullable RateLimiter<Request> rateLimiter) {
		super(name, period);
		this.type = Objects.requireNonNull(type, () -> "Source '" + name + "' must name its primary type");
		this.poll = Objects.requireNonNull(poll, () -> "Source '" + name + "' must have a poll function");
		this.rateLimiter = (rateLimiter != null) ? rateLimiter : defaultLimiter();
	}

	/**
	 * Return a copy of this source whose failed polls wait for another limiter, asked
	 * with the object's key. Default: exponential from 1 second to 5 minutes.
	 * @param rateLimiter the limiter
	 * @return the copy
	 */
	public PerObjectPollingSource<T> rateLimiter(RateLimiter<Request> rateLimiter) {
		return new PerObjectPollingSource<>(name(), this.type, period(), this.poll, rateLimiter);
	}

	/**
	 * Return the primary type whose objects are polled.
	 * @return the type
	 */
	public Class<T> type() {
		return this.type;
	}

	@Override
	public PerObjectPollingSource<T> withPeriod(Duration period) {
		return new PerObjectPollingSource<>(name(), this.type, period, this.poll, this.rateLimiter);
	}

	@Override
	public String kind() {
		return "per-object-polling";
	}

	@Override
	void reset() {
		this.states.clear();
		this.retrying.clear();
	}

	@Override
	Duration poll(SourceContext context) {
		List<Request> keys = context.cachedKeys();
		this.states.keySet().retainAll(new HashSet<>(keys));
		for (Request key : keys) {
			if (Thread.currentThread().isInterrupted()) {
				break;
			}
			// another shard replica polls the keys it reconciles; the state is kept
			// for when this one reconciles the key again
			if (!this.retrying.contains(key) && context.owns(key)) {
				pollOne(context, key);
			}
		}
		return period();
	}

	private void pollOne(SourceContext context, Request key) {
		KubernetesObject cached = context.cached(key);
		if (!this.type.isInstance(cached)) {
			this.states.remove(key);
			return;
		}
		Object state;
		try {
			Object polled = this.poll.poll(this.type.cast(cached));
			state = (polled != null) ? polled : NONE;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		catch (Exception ex) {
			Duration retry = this.rateLimiter.when(key);
			logFailure(name(), context, key, retry, ex);
			this.retrying.add(key);
			later(context, retry, () -> {
				this.retrying.remove(key);
				pollOne(context, key);
			});
			return;
		}
		this.rateLimiter.forget(key);
		Object previous = this.states.put(key, state);
		if (!state.equals((previous != null) ? previous : NONE)) {
			// a first answer is this source's initial list: a new leader's first polls of
			// every object must not hold up the changes written meanwhile
			context.add(key, (previous != null) ? Priorities.NORMAL : Priorities.LOW);
		}
	}

}
