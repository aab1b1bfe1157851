package dev.kubereconciler.autoconfigure;

import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Callback that customizes the rate limiter of one controller, or of every controller,
 * after it was built from properties or beans.
 */
@FunctionalInterface
public interface RateLimiterCustomizer {

	/**
	 * Customize a controller's limiter.
	 * @param controllerName the controller name
	 * @param limiter the limiter built so far
	 * @return the limiter to use, possibly the same
	 */
	RateLimiter<Request> customize(String controllerName, RateLimiter<Request> limiter);

	/**
	 * Return a customizer that applies only to the named controller.
	 * @param controllerName the controller name
	 * @param customizer the customization
	 * @return the customizer
	 */
	static RateLimiterCustomizer of(String controllerName, UnaryOperator<RateLimiter<Request>> customizer) {
		Objects.requireNonNull(controllerName, "controllerName must not be null");
		return (name, limiter) -> controllerName.equals(name) ? customizer.apply(limiter) : limiter;
	}

}
