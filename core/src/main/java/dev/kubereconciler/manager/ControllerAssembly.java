package dev.kubereconciler.manager;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.internal.controller.RateLimiterScopes;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Makes a manager's controllers from the builder's definitions: each gets its limiter
 * scoped for sharing and its bound reconcile function, and a name twice is refused.
 */
final class ControllerAssembly {

	private ControllerAssembly() {
	}

	static Map<String, WorkQueueController> create(ManagerBuilder builder,
			Function<ControllerDefinition, ReconcileFunction> binder, ManagerGate gate, DelayScheduler clock,
			ThreadFactory threadFactory) {
		Map<String, WorkQueueController> controllers = new LinkedHashMap<>();
		// one limiter instance in several controllers, at any depth: share its rate, not
		// its per-item backoff
		Iterator<RateLimiter<Request>> limiters = RateLimiterScopes
			.scopeShared(builder.definitions.stream().map(ControllerDefinition::name).toList(),
					builder.definitions.stream().map(ControllerDefinition::rateLimiter).toList())
			.iterator();
		for (ControllerDefinition original : builder.definitions) {
			RateLimiter<Request> limiter = limiters.next();
			ControllerDefinition definition = (limiter != original.rateLimiter()) ? original.withRateLimiter(limiter)
					: original;
			if (controllers.containsKey(definition.name())) {
				throw new IllegalArgumentException("Duplicate controller name '" + definition.name() + "'");
			}
			controllers.put(definition.name(),
					new WorkQueueController(definition, binder.apply(definition), gate, builder.listener, clock,
							threadFactory, builder.abandonGrace, builder.priorityQueue, builder.observations));
		}
		return controllers;
	}

}
