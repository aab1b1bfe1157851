package dev.kubereconciler.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.kubereconciler.actuate.ControllerActivity.Decision;
import dev.kubereconciler.actuate.ControllerActivity.DelayStatistics;
import dev.kubereconciler.actuate.ControllerActivity.RetryingItem;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiterState;
import dev.kubereconciler.ratelimit.RateLimiterStates;
import dev.kubereconciler.ratelimit.StormSimulator;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * {@link Endpoint @Endpoint} {@code controllers}: what every controller is doing, why its keys
 * wait, and a few write operations to intervene. Read-only by default; writes need
 * {@code management.endpoint.controllers.access=unrestricted}.
 */
@Endpoint(id = "controllers", defaultAccess = Access.READ_ONLY)
public class ControllersEndpoint {

	static final int MAX_ITEMS = 20;

	static final int MAX_SIMULATED_ITEMS = 100_000;

	static final int MAX_SIMULATED_SECONDS = 3_600;

	private final Supplier<ControllerManager> manager;

	private final ControllerActivity activity;

	private final Show showItems;

	private final Set<String> roles;

	/**
	 * Create the endpoint.
	 * @param manager the manager, resolved on each call
	 * @param activity the recorded activity
	 * @param showItems when object keys are shown
	 * @param roles the roles that may see keys with {@link Show#WHEN_AUTHORIZED}
	 */
	public ControllersEndpoint(Supplier<ControllerManager> manager, ControllerActivity activity, Show showItems,
			Set<String> roles) {
		this.manager = manager;
		this.activity = activity;
		this.showItems = showItems;
		this.roles = roles;
	}

	@ReadOperation
	public ControllersDescriptor controllers() {
		ControllerManager manager = this.manager.get();
		Map<String, ControllerDescriptor> controllers = new LinkedHashMap<>();
		manager.controllers().forEach((name, controller) -> controllers.put(name, describe(controller)));
		return new ControllersDescriptor(new ManagerDescriptor(manager.isLeader(), manager.gate().bucket().state(),
				manager.gate().appliesTo().stream().map((cause) -> cause.name().toLowerCase().replace('_', '-')).toList()),
				controllers);
	}

	@ReadOperation
	public ControllerDetails controller(SecurityContext securityContext, @Selector String name) {
		Controller controller = find(name);
		boolean show = this.showItems.isShown(securityContext, this.roles);
		List<RetryingItem> items = show ? this.activity.retrying(name, MAX_ITEMS) : List.of();
		List<Decision> events = this.activity.events(name);
		if (!show) {
			events = events.stream()
				.map((event) -> new Decision("******", event.cause(), event.source(), event.delay(), event.time()))
				.toList();
		}
		return new ControllerDetails(describe(controller), items, events);
	}

	@ReadOperation
	public SimulationDescriptor simulate(@Selector String name, @Selector String operation, @Nullable Integer items,
			@Nullable Integer seconds) {
		if (!"simulate".equals(operation)) {
			throw new InvalidEndpointRequestException("Unknown operation '" + operation + "'",
					"Unknown operation; use /simulate");
		}
		Controller controller = find(name);
		int n = (items != null) ? items : 1000;
		int s = (seconds != null) ? seconds : 60;
		if (n < 1 || n > MAX_SIMULATED_ITEMS) {
			throw new InvalidEndpointRequestException("items must be between 1 and " + MAX_SIMULATED_ITEMS,
					"Invalid items");
		}
		if (s < 1 || s > MAX_SIMULATED_SECONDS) {
			throw new InvalidEndpointRequestException("seconds must be between 1 and " + MAX_SIMULATED_SECONDS,
					"Invalid seconds");
		}
		RateLimiterState state = controller.rateLimiter().state();
		StormSimulator simulator = new StormSimulator(n, Duration.ofSeconds(s), Duration.ofSeconds(1));
		try {
			StormSimulator.Storm storm = simulator.run((ticker) -> RateLimiterStates.<Integer>rebuild(state, ticker));
			return new SimulationDescriptor(name, n, s, state, storm.attempts(), storm.total());
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Cannot simulate this limiter");
		}
	}

	/**
	 * Change the manager bucket's rate and burst.
	 * @param qps the new rate in tokens per second, or {@code null} to keep it
	 * @param burst the new burst, or {@code null} to keep it
	 * @return the manager's new state
	 */
	@WriteOperation
	public ManagerDescriptor retuneManager(@Nullable Double qps, @Nullable Integer burst) {
		retune(this.manager.get().gate().bucket(), qps, burst);
		return controllers().manager();
	}

	/**
	 * Act on one controller: {@code pause}, {@code resume}, {@code forget} (with {@code key}) or
	 * {@code retune} (with {@code qps} and/or {@code burst}) of its token bucket.
	 * @param name the controller name
	 * @param action the action
	 * @param key the {@code namespace/name} key, for {@code forget}
	 * @param qps the new rate, for {@code retune}
	 * @param burst the new burst, for {@code retune}
	 * @return the controller's new state
	 */
	@WriteOperation
	public ControllerDescriptor act(@Selector String name, @Selector String action, @Nullable String key,
			@Nullable Double qps, @Nullable Integer burst) {
		Controller controller = find(name);
		switch (action) {
			case "pause" -> controller.pause();
			case "resume" -> controller.resume();
			case "forget" -> {
				if (key == null || key.isBlank()) {
					throw new InvalidEndpointRequestException("forget needs a 'key' such as namespace/name",
							"Missing key");
				}
				Request request = Request.fromKey(key);
				controller.queue().forget(request);
				this.activity.forget(name, request);
			}
			case "retune" -> {
				TokenBucketRateLimiter<?> bucket = findBucket(controller.rateLimiter());
				if (bucket == null) {
					throw new InvalidEndpointRequestException(
							"Controller '" + name + "' has no token bucket to retune", "No bucket");
				}
				retune(bucket, qps, burst);
			}
			default -> throw new InvalidEndpointRequestException("Unknown action '" + action
					+ "'; use pause, resume, forget or retune", "Unknown action");
		}
		return describe(controller);
	}

	private static void retune(TokenBucketRateLimiter<?> bucket, Double qps, Integer burst) {
		if (qps == null && burst == null) {
			throw new InvalidEndpointRequestException("retune needs 'qps' and/or 'burst'", "Nothing to retune");
		}
		if (qps != null && !(qps > 0)) {
			throw new InvalidEndpointRequestException("qps must be greater than 0, was " + qps, "Invalid qps");
		}
		if (burst != null && burst < 1) {
			throw new InvalidEndpointRequestException("burst must be at least 1, was " + burst, "Invalid burst");
		}
		if (qps != null) {
			bucket.setRate(qps);
		}
		if (burst != null) {
			bucket.setBurst(burst);
		}
	}

	static TokenBucketRateLimiter<?> findBucket(RateLimiter<?> limiter) {
		if (limiter instanceof TokenBucketRateLimiter<?> bucket) {
			return bucket;
		}
		for (RateLimiter<?> child : limiter.children()) {
			TokenBucketRateLimiter<?> bucket = findBucket(child);
			if (bucket != null) {
				return bucket;
			}
		}
		return null;
	}

	private Controller find(String name) {
		Controller controller = this.manager.get().controller(name);
		if (controller == null) {
			throw new InvalidEndpointRequestException("No controller named '" + name + "'", "Unknown controller");
		}
		return controller;
	}

	private ControllerDescriptor describe(Controller controller) {
		String name = controller.name();
		return new ControllerDescriptor(controller.resourceType().displayName(), controller.state().label(),
				controller.definition().maxConcurrentReconciles(), controller.activeWorkers(),
				new QueueDescriptor(controller.queue().depth(), controller.queue().waiting(),
						controller.queue().inFlight()),
				this.activity.delays(name).count() == 0 ? 0 : sumRetries(name), this.activity.reconciles(name),
				controller.rateLimiter().state(), this.activity.delays(name));
	}

	private long sumRetries(String name) {
		Map<String, Long> reconciles = this.activity.reconciles(name);
		return reconciles.get("error") + reconciles.get("requeue");
	}

	/**
	 * The whole endpoint's response.
	 *
	 * @param manager the manager
	 * @param controllers the controllers by name
	 */
	public record ControllersDescriptor(ManagerDescriptor manager,
			Map<String, ControllerDescriptor> controllers) implements OperationResponseBody {

	}

	/**
	 * The manager's state.
	 *
	 * @param leader whether this instance runs the controllers
	 * @param rateLimiter the manager bucket
	 * @param appliesTo the causes that pass through the manager bucket
	 */
	public record ManagerDescriptor(boolean leader, RateLimiterState rateLimiter,
			List<String> appliesTo) implements OperationResponseBody {

	}

	/**
	 * One controller's summary.
	 *
	 * @param watches the watched type, such as {@code v1/ConfigMap}
	 * @param state running, paused, waiting-for-leadership, stopped, failed or new
	 * @param maxConcurrentReconciles the number of workers
	 * @param activeWorkers the workers reconciling now
	 * @param queue the queue's counts
	 * @param retries rate-limited requeues so far
	 * @param reconciles reconciles by outcome
	 * @param rateLimiter the limiter's state
	 * @param limiterDelay delays imposed on keys, by source
	 */
	public record ControllerDescriptor(String watches, String state, int maxConcurrentReconciles, int activeWorkers,
			QueueDescriptor queue, long retries, Map<String, Long> reconciles, RateLimiterState rateLimiter,
			DelayStatistics limiterDelay) implements OperationResponseBody {

	}

	/**
	 * A work queue's counts.
	 *
	 * @param depth keys ready to be reconciled
	 * @param waiting keys waiting out a delay
	 * @param inFlight keys being reconciled
	 */
	public record QueueDescriptor(int depth, int waiting, int inFlight) {

	}

	/**
	 * One controller's details.
	 *
	 * @param summary the summary
	 * @param items the retrying keys with the most requeues (empty when keys are hidden)
	 * @param events the latest limiter decisions
	 */
	public record ControllerDetails(ControllerDescriptor summary, List<RetryingItem> items,
			List<Decision> events) implements OperationResponseBody {

	}

	/**
	 * A storm simulation of a controller's limiter.
	 *
	 * @param controller the controller name
	 * @param items how many items fail continuously from t=0
	 * @param seconds the horizon
	 * @param rateLimiter the simulated limiter
	 * @param requeuesPerSecond attempts in each second
	 * @param total all attempts
	 */
	public record SimulationDescriptor(String controller, int items, int seconds, RateLimiterState rateLimiter,
			List<Long> requeuesPerSecond, long total) implements OperationResponseBody {

	}

}
