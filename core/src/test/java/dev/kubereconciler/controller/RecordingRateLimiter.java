package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * A rate limiter that returns a fixed delay and records every call, so tests can assert
 * which queue action an outcome took.
 */
class RecordingRateLimiter implements RateLimiter<Request> {

	final List<String> calls = new CopyOnWriteArrayList<>();

	private final Map<Request, Integer> failures = new ConcurrentHashMap<>();

	private final Duration delay;

	RecordingRateLimiter(Duration delay) {
		this.delay = delay;
	}

	@Override
	public Duration when(Request item) {
		this.calls.add("when " + item);
		this.failures.merge(item, 1, Integer::sum);
		return this.delay;
	}

	@Override
	public void forget(Request item) {
		this.calls.add("forget " + item);
		this.failures.remove(item);
	}

	@Override
	public int numRequeues(Request item) {
		return this.failures.getOrDefault(item, 0);
	}

}
