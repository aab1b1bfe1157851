package dev.kubereconciler.sample.external;

import java.time.Duration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * {@code GET /sample/external-api}: how many calls the external API got and how fast,
 * next to the manager bucket that caps them.
 */
@RestController
public class ExternalApiController {

	private static final Duration WINDOW = Duration.ofSeconds(10);

	private final ExternalWidgetApi api;

	private final TokenBucketRateLimiter<?> managerBucket;

	private final ObjectProvider<ManagedControllers> controllers;

	public ExternalApiController(ExternalWidgetApi api,
			@Qualifier(KubeReconcilerAutoConfiguration.MANAGER_RATE_LIMITER_BEAN_NAME)
			TokenBucketRateLimiter<?> managerBucket,
			ObjectProvider<ManagedControllers> controllers) {
		this.api = api;
		this.managerBucket = managerBucket;
		this.controllers = controllers;
	}

	@GetMapping("/sample/external-api")
	public ExternalApiReport report() {
		double qps = this.managerBucket.qps();
		int burst = this.managerBucket.burst();
		double perSecond = this.api.callsPerSecond(WINDOW);
		// any window of t seconds admits at most burst + qps·t reconciles, and each reconcile
		// makes at most one call
		double ceiling = (Double.isInfinite(qps)) ? Double.POSITIVE_INFINITY
				: (burst + qps * WINDOW.toSeconds()) / WINDOW.toSeconds();
		ManagedControllers managed = this.controllers.getIfAvailable();
		long admitted = (managed != null) ? managed.getManager().gate().admitted() : 0;
		return new ExternalApiReport(this.api.calls(), this.api.failures(), this.api.size(), perSecond,
				WINDOW.toSeconds(), new ManagerBucket(Double.isInfinite(qps) ? "+Inf" : qps, burst,
						this.managerBucket.tokens(), admitted),
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
	 * @param withinManagerRate whether the calls in the window stayed within burst + qps·window
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
