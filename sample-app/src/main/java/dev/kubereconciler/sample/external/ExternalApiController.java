package dev.kubereconciler.sample.external;

import java.time.Duration;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * {@code GET /sample/external-api}: how many calls the external API got and how fast,
 * next to the manager bucket that caps them.
 */
@RestController
public class ExternalApiController {

	private static final Duration WINDOW = Duration.ofSeconds(10);

	private final ExternalWidgetApi api;

	private final ControllerRegistry controllers;

	public ExternalApiController(ExternalWidgetApi api, ControllerRegistry controllers) {
		this.api = api;
		this.controllers = controllers;
	}

	@GetMapping("/sample/external-api")
	public ExternalApiReport report() {
		ManagerGate gate = this.controllers.gate();
		TokenBucketRateLimiter<?> bucket = gate.bucket();
		double qps = bucket.qps();
		int burst = bucket.burst();
		double perSecond = this.api.callsPerSecond(WINDOW);
		// any window of t seconds admits at most burst + qps·t reconciles, and each
		// reconcile makes at most one call
		double ceiling = (Double.isInfinite(qps)) ? Double.POSITIVE_INFINITY
				: (burst + qps * WINDOW.toSeconds()) / WINDOW.toSeconds();
		long admitted = gate.admitted();
		return new ExternalApiReport(this.api.calls(), this.api.failures(), this.api.size(), perSecond,
				WINDOW.toSeconds(),
				new ManagerBucket(Double.isInfinite(qps) ? "+Inf" : qps, burst, bucket.tokens(), admitted),
				perSecond <= ceiling);
	}

	/**
	 * What the external API was asked.
	 *
	 * @param calls all calls so far, failed ones included
	 * @param failures the failed calls
	 * @param widgets the widgets the external API holds
	 * @param callsPerSecond calls per second over the last {@code windowSeconds}
	 * @param windowSeconds the window of {@code callsPerSecond}
	 * @param managerRateLimiter the manager bucket shared by all controllers
	 * @param withinManagerRate whether the calls in the window stayed within burst +
	 * qps·window
	 */
	public record ExternalApiReport(long calls, long failures, int widgets, double callsPerSecond, long windowSeconds,
			ManagerBucket managerRateLimiter, boolean withinManagerRate) {

	}

	/**
	 * The manager bucket's settings and state.
	 *
	 * @param qps tokens per second, or "+Inf"
	 * @param burst the capacity
	 * @param tokens the tokens now; negative means debt
	 * @param admittedReconciles the reconciles of every controller that passed the bucket
	 */
	public record ManagerBucket(Object qps, int burst, double tokens, long admittedReconciles) {

	}

}
