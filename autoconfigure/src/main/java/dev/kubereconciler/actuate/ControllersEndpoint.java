package dev.kubereconciler.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import dev.kubereconciler.actuate.ControllerActivity.DelayStatistics;
import dev.kubereconciler.actuate.ControllerActivity.ReconcileCounts;
import dev.kubereconciler.cluster.ClusterStatus;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiterState;
import dev.kubereconciler.reconcile.Request;

/**
 * {@link Endpoint @Endpoint} to expose what every controller is doing and why its keys
 * wait, with write operations to pause, resume, forget a key's backoff and retune token
 * buckets.
 *
 * <p>
 * Read-only by default: the write operations need
 * {@code management.endpoint.controllers.access=unrestricted}. A single duration is
 * rendered as an ISO-8601 string ({@code PT0.2S}); sums and maxima are numbers of seconds
 * in fields named {@code ...Seconds}.
 */
@Endpoint(id = "controllers", defaultAccess = Access.READ_ONLY)
public class ControllersEndpoint {

	/** The most retrying keys listed for one controller. */
	static final int MAX_ITEMS = 20;

	private final Supplier<ControllerManager> manager;

	private final ControllerActivity activity;

	private final Show showItems;

	private final Descriptors descriptors;

	/**
	 * Create the endpoint.
	 * @param manager supplies the manager on each call
	 * @param activity the recorded activity
	 * @param showItems when object keys are shown; outside the web, where there is no
	 * security context, {@link Show#WHEN_AUTHORIZED} shows them
	 */
	public ControllersEndpoint(Supplier<ControllerManager> manager, ControllerActivity activity, Show showItems) {
		this.manager = manager;
		this.activity = activity;
		this.showItems = showItems;
		this.descriptors = new Descriptors(activity);
	}

	@ReadOperation
	public ControllersDescriptor controllers() {
		ControllerManager manager = this.manager.get();
		Map<String, ControllerDescriptor> controllers = new LinkedHashMap<>();
		manager.controllers()
			.forEach((name, controller) -> controllers.put(name, this.descriptors.controller(controller)));
		return new ControllersDescriptor(this.descriptors.manager(manager), controllers, manager.clusters());
	}

	@ReadOperation
	public @Nullable ControllerDetails controller(@Selector String name) {
		return details(name, this.showItems.isShown(true));
	}

	@Nullable ControllerDetails details(String name, boolean showKeys) {
		Controller controller = this.manager.get().controller(name);
		if (controller == null) {
			return null;
		}
		List<ItemDescriptor> items = this.activity.retrying(name, MAX_ITEMS)
			.stream()
			.map((retrying) -> Descriptors.item(controller, retrying.request(), retrying.retries(), showKeys))
			.toList();
		List<DecisionDescriptor> events = this.activity.decisions(name)
			.stream()
			.map((decision) -> new DecisionDescriptor(showKeys ? decision.request().key() : Descriptors.HIDDEN,
					Descriptors.label(decision.cause()), decision.source().label(), decision.delay().toString(),
					decision.time().toString()))
			.toList();
		return new ControllerDetails(name, this.descriptors.controller(controller), items, events);
	}

	/**
	 * Replay a failure storm against a fresh copy of a controller's configured limiter,
	 * on a virtual clock; the live limiter is not touched.
	 * @param name the controller name
	 * @param operation must be {@code simulate}
	 * @param items how many keys fail on every attempt from time 0; 1000 by default
	 * @param seconds how long to simulate; 60 by default
	 * @return the requeues in each second, or {@code null} for an unknown controller
	 */
	@ReadOperation
	public @Nullable SimulationDescriptor simulate(@Selector String name, @Selector String operation,
			@Nullable Integer items, @Nullable Integer seconds) {
		if (!"simulate".equals(operation)) {
			throw new InvalidEndpointRequestException(
					"Unknown operation '" + operation + "'; GET " + name + "/simulate is the only one",
					"Unknown operation");
		}
		StormReplay replay = StormReplay.of(items, seconds);
		Controller controller = this.manager.get().controller(name);
		return (controller != null) ? replay.run(name, controller.rateLimiter().state()) : null;
	}

	/**
	 * Change the rate and burst of the manager's token bucket from now on.
	 * @param qps the new rate in tokens per second, or {@code null} to keep it
	 * @param burst the new burst, or {@code null} to keep it
	 * @return the manager's new state
	 */
	@WriteOperation
	public ManagerDescriptor retuneManager(@Nullable Double qps, @Nullable Integer burst) {
		ControllerManager manager = this.manager.get();
		WriteArguments.apply(manager.gate().bucket(), qps, burst);
		return this.descriptors.manager(manager);
	}

	/**
	 * Act on one controller: {@code pause} or {@code resume} its workers, {@code forget}
	 * the backoff of one {@code key}, {@code retune} the {@code qps} and {@code burst} of
	 * its token bucket, {@code reconcile-all} its cached objects, or change its
	 * {@code namespaces}. The web maps every action to one path,
	 * {@code controllers/{name}/{action}}, so this operation only checks the arguments
	 * and hands over to the action's own method.
	 * @param name the controller name
	 * @param action {@code pause}, {@code resume}, {@code forget}, {@code retune} or
	 * {@code reconcile-all}
	 * @param key the {@code namespace/name} key, for {@code forget} only
	 * @param qps the new rate, for {@code retune} only
	 * @param burst the new burst, for {@code retune} only
	 * @param namespaces the namespaces, comma-separated, for {@code namespaces} only
	 * @return the controller's new state
	 */
	@WriteOperation
	public ControllerDescriptor act(@Selector String name, @Selector String action, @Nullable String key,
			@Nullable Double qps, @Nullable Integer burst, @Nullable String namespaces) {
		requireController(name);
		WriteArguments.check(action, key, qps, burst);
		WriteArguments.checkNamespaces(action, namespaces);
		return switch (action) {
			case "pause" -> pause(name);
			case "resume" -> resume(name);
			case "forget" -> forget(name, key);
			case "reconcile-all" -> reconcileAll(name);
			case "namespaces" -> namespaces(name, namespaces);
			default -> retune(name, qps, burst);
		};
	}

	/**
	 * Queue every cached primary object of a controller once, as
	 * {@link Controller#reconcileAll()} does.
	 * @param name the controller name
	 * @return the controller's new state
	 */
	public ControllerDescriptor reconcileAll(String name) {
		Controller controller = requireController(name);
		controller.reconcileAll();
		return this.descriptors.controller(controller);
	}

	/**
	 * Change the namespaces a controller reconciles while it runs, as
	 * {@link Controller#changeNamespaces} does; the answer does not wait for an added
	 * namespace to sync.
	 * @param name the controller name
	 * @param namespaces the namespaces, comma-separated; empty for all of them
	 * @return the controller's state
	 */
	public ControllerDescriptor namespaces(String name, @Nullable String namespaces) {
		Controller controller = requireController(name);
		try {
			controller.changeNamespaces(WriteArguments.parseNamespaces(namespaces));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidEndpointRequestException(String.valueOf(ex.getMessage()), "Invalid namespaces");
		}
		return this.descriptors.controller(controller);
	}

	/**
	 * Pause a controller: its workers finish their reconcile and take no new keys.
	 * @param name the controller name
	 * @return the controller's new state
	 */
	public ControllerDescriptor pause(String name) {
		Controller controller = requireController(name);
		controller.pause();
		return this.descriptors.controller(controller);
	}

	/**
	 * Resume a paused controller's workers.
	 * @param name the controller name
	 * @return the controller's new state
	 */
	public ControllerDescriptor resume(String name) {
		Controller controller = requireController(name);
		controller.resume();
		return this.descriptors.controller(controller);
	}

	/**
	 * Forget a key's failure history in a controller's rate limiter.
	 * @param name the controller name
	 * @param key the {@code namespace/name} key
	 * @return the controller's new state
	 */
	public ControllerDescriptor forget(String name, @Nullable String key) {
		Controller controller = requireController(name);
		Request request = WriteArguments.parseKey(key);
		controller.forget(request);
		this.activity.forget(name, request);
		return this.descriptors.controller(controller);
	}

	/**
	 * Change the rate and burst of the token bucket in a controller's limiter from now
	 * on.
	 * @param name the controller name
	 * @param qps the new rate in tokens per second, or {@code null} to keep it
	 * @param burst the new burst, or {@code null} to keep it
	 * @return the controller's new state
	 */
	public ControllerDescriptor retune(String name, @Nullable Double qps, @Nullable Integer burst) {
		Controller controller = requireController(name);
		WriteArguments.apply(WriteArguments.bucketOf(name, controller.rateLimiter()), qps, burst);
		return this.descriptors.controller(controller);
	}

	private Controller requireController(String name) {
		Controller controller = this.manager.get().controller(name);
		if (controller == null) {
			throw new InvalidEndpointRequestException(
					"No controller named '" + name + "'; there are " + this.manager.get().controllers().keySet(),
					"Unknown controller");
		}
		return controller;
	}

	/**
	 * The whole endpoint's response.
	 *
	 * @param manager the manager
	 * @param controllers the controllers by name
	 * @param clusters the engaged clusters of the fleet and where each stands, by name
	 */
	public record ControllersDescriptor(ManagerDescriptor manager, Map<String, ControllerDescriptor> controllers,
			List<ClusterStatus> clusters) implements OperationResponseBody {

	}

	/**
	 * The manager's state.
	 *
	 * @param leader whether this instance runs the controllers; always once started
	 * without leader election
	 * @param leaderElection whether leader election is enabled
	 * @param rateLimiter the manager bucket that reconciles pass before they run; the
	 * local cluster's own when split across clusters
	 * @param appliesTo the causes whose reconciles pass the manager bucket
	 * @param maxWait the longest a worker waits at the gate (ISO-8601), {@code null} for
	 * no limit
	 * @param admitted how many reconciles passed the gate
	 * @param sharding this replica's share of the keys, {@code null} when sharding is off
	 * @param acrossClusters {@code shared} or {@code split}
	 * @param clusterRateLimiters each member cluster's own bucket by name when split,
	 * {@code null} when shared
	 */
	public record ManagerDescriptor(boolean leader, boolean leaderElection, RateLimiterState rateLimiter,
			List<String> appliesTo, @Nullable String maxWait, long admitted, @Nullable ShardingDescriptor sharding,
			String acrossClusters,
			@Nullable Map<String, RateLimiterState> clusterRateLimiters) implements OperationResponseBody {

	}

	/**
	 * One controller's summary.
	 *
	 * @param watches the watched type, such as {@code v1/ConfigMap}
	 * @param state {@code new}, {@code waiting-for-leadership}, {@code running},
	 * {@code paused}, {@code stopped} or {@code failed}
	 * @param maxConcurrentReconciles the number of workers
	 * @param activeWorkers the workers reconciling now
	 * @param queue the work queue's counts
	 * @param retries rate-limited requeues so far
	 * @param reconciles reconciles by outcome
	 * @param rateLimiter the limiter's configuration and live state
	 * @param limiterDelay delays that limiters decided, by source
	 * @param eventFilterDrops updates of primary objects that each event filter dropped
	 * @param conflicts reconciles that failed with a write conflict (HTTP 409) and were
	 * retried
	 * @param dependents the dependents, in declaration order, enabled or not
	 * @param sources the sources, in declaration order, then {@code reconcile-all} once
	 * it ran
	 */
	public record ControllerDescriptor(String watches, String state, int maxConcurrentReconciles, int activeWorkers,
			QueueDescriptor queue, long retries, ReconcileCounts reconciles, RateLimiterState rateLimiter,
			DelayStatistics limiterDelay, Map<String, Long> eventFilterDrops, long conflicts,
			List<DependentDescriptor> dependents, List<SourceDescriptor> sources) implements OperationResponseBody {

	}

	/**
	 * One source of a controller's keys.
	 *
	 * @param name the source's name
	 * @param kind {@code channel}, {@code polling}, {@code per-object-polling},
	 * {@code timer}, {@code reconcile-all} or the kind a custom source names
	 * @param period the period of a periodic source, such as {@code PT1M}, or
	 * {@code null}
	 * @param keys the keys it added to the queue so far
	 */
	public record SourceDescriptor(String name, String kind, @Nullable String period, long keys) {

	}

	/**
	 * A work queue's counts.
	 *
	 * @param depth keys ready to be reconciled
	 * @param waiting keys waiting out a delay
	 * @param inFlight keys being reconciled
	 * @param depthByPriority ready keys by priority, highest first; a plain queue shows
	 * all of them at priority 0
	 */
	public record QueueDescriptor(int depth, int waiting, int inFlight, Map<String, Integer> depthByPriority) {

	}

	/**
	 * One controller's details.
	 *
	 * @param name the controller name
	 * @param summary the summary, as in the list of all controllers
	 * @param items the keys with the most rate-limited requeues since they last succeeded
	 * @param events the latest limiter decisions, newest first
	 */
	public record ControllerDetails(String name, ControllerDescriptor summary, List<ItemDescriptor> items,
			List<DecisionDescriptor> events) implements OperationResponseBody {

	}

	/**
	 * A key that keeps being requeued.
	 *
	 * @param key the {@code namespace/name} key, or {@code ******} when keys are hidden
	 * @param retries rate-limited requeues since it last succeeded
	 * @param numRequeues the failures its rate limiter counts, which decide its next
	 * backoff
	 * @param nextAttemptIn how long it still waits (ISO-8601); {@code PT0S} when due or
	 * running
	 */
	public record ItemDescriptor(String key, long retries, int numRequeues, String nextAttemptIn) {

	}

	/**
	 * One limiter decision.
	 *
	 * @param key the {@code namespace/name} key, or {@code ******} when keys are hidden
	 * @param cause {@code event}, {@code retry} or {@code requeue-after}
	 * @param source {@code backoff}, {@code bucket} or {@code manager}
	 * @param delay the delay (ISO-8601)
	 * @param time when it was decided (ISO-8601)
	 */
	public record DecisionDescriptor(String key, String cause, String source, String delay, String time) {

	}

	/**
	 * A storm simulation of a controller's limiter.
	 *
	 * @param controller the controller name
	 * @param items how many keys fail on every attempt from time 0
	 * @param seconds the simulated time
	 * @param rateLimiter the simulated limiter's configuration
	 * @param requeuesPerSecond the requeues in each second
	 * @param totalRequeues all requeues
	 */
	public record SimulationDescriptor(String controller, int items, int seconds, RateLimiterState rateLimiter,
			List<Long> requeuesPerSecond, long totalRequeues) implements OperationResponseBody {

	}

}
