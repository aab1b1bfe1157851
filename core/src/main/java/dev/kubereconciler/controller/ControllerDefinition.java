package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cache.LabelSelectorMatcher;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.UpdatePredicate;
import dev.kubereconciler.source.Source;

/**
 * Everything a controller manager needs to run one controller: what it watches, how it
 * reconciles, and how it is throttled. A definition names its watched type once, in
 * {@link #builder(Class)}, and takes its reconcile logic last, as controller-runtime's
 * builder does:
 *
 * <pre class="code">
 * ControllerDefinition definition = ControllerDefinition.builder(Widget.class)
 *     .finalizer("example.com/cleanup", (widget, context) -&gt; Result.done())
 *     .dependent("config", V1ConfigMap.class, (widget, context) -&gt; configMap(widget))
 *     .reconcile((widget, context) -&gt; Result.done());
 * </pre>
 *
 * @param name the controller name, unique in a manager; used as the metric label
 * @param watches the primary watched type
 * @param owns types whose changes reconcile their controlling owner of the primary type
 * @param namespaces the namespaces to watch; empty for all namespaces
 * @param labelSelector the label selector that watched objects must match
 * @param reconciler what runs on each key
 * @param maxConcurrentReconciles the number of workers, default 1
 * @param rateLimiter the limiter for failures and {@code Result.requeue()}, default
 * {@link RateLimiters#controllerDefault()}
 * @param reconcileTimeout how long one reconcile may run before it is interrupted and
 * retried, default 10 minutes; zero for no timeout
 * @param cacheSyncTimeout how long to wait for the informers to sync before start fails,
 * default 2 minutes
 * @param resyncPeriod how often every watched object is reconciled again without a
 * change, default 10 hours; zero for never
 * @param updateFilters filters, by name, that every update of a primary object must pass
 * to reconcile it (ANDed, in order); creates and deletes always pass; none by default
 * @param mappedWatches other watched types whose changes reconcile the keys a mapper
 * returns
 * @param indexes the indexes this controller declares on the types it caches, which the
 * manager adds to their informers
 * @param sources where keys come from besides the watches, each started and stopped with
 * the workers; none by default
 * @param clusters where it reconciles: the local cluster (the default), the engaged
 * clusters of the fleet, or both
 */
public record ControllerDefinition(String name, Class<? extends KubernetesObject> watches,
		List<Class<? extends KubernetesObject>> owns, Set<String> namespaces, LabelSelectorMatcher labelSelector,
		ReconcileLogic<?> reconciler, int maxConcurrentReconciles, RateLimiter<Request> rateLimiter,
		Duration reconcileTimeout, Duration cacheSyncTimeout, Duration resyncPeriod,
		Map<String, UpdatePredicate> updateFilters, List<MappedWatch<?>> mappedWatches, List<FieldIndex<?>> indexes,
		List<Source> sources, ClusterScope clusters) {

	/** Default reconcile timeout. */
	public static final Duration DEFAULT_RECONCILE_TIMEOUT = Duration.ofMinutes(10);

	/** Default cache sync timeout, as in controller-runtime. */
	public static final Duration DEFAULT_CACHE_SYNC_TIMEOUT = Duration.ofMinutes(2);

	/** Default resync period, as controller-runtime's default sync period. */
	public static final Duration DEFAULT_RESYNC_PERIOD = Duration.ofHours(10);

	public ControllerDefinition {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Controller name must not be empty");
		}
		Objects.requireNonNull(watches, () -> "Controller '" + name + "' must watch a type");
		Objects.requireNonNull(reconciler, () -> "Controller '" + name + "' must have a reconciler");
		Objects.requireNonNull(rateLimiter, () -> "Controller '" + name + "' must have a rate limiter");
		if (!reconciler.type().isAssignableFrom(watches)) {
			throw new IllegalArgumentException("Controller '" + name + "' watches " + watches.getName()
					+ " but its reconciler takes " + reconciler.type().getName());
		}
		owns = List.copyOf(owns);
		namespaces = Set.copyOf(namespaces);
		labelSelector = (labelSelector != null) ? labelSelector : LabelSelectorMatcher.everything();
		if (maxConcurrentReconciles < 1) {
			throw new IllegalArgumentException("Controller '" + name
					+ "' maxConcurrentReconciles must be at least 1, was " + maxConcurrentReconciles);
		}
		requireNotNegative(name, "reconcileTimeout", reconcileTimeout);
		requireNotNegative(name, "cacheSyncTimeout", cacheSyncTimeout);
		requireNotNegative(name, "resyncPeriod", resyncPeriod);
		updateFilters = (updateFilters != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(updateFilters))
				: Map.of();
		mappedWatches = (mappedWatches != null) ? List.copyOf(mappedWatches) : List.of();
		indexes = (indexes != null) ? List.copyOf(indexes) : List.of();
		sources = (sources != null) ? List.copyOf(sources) : List.of();
		SourceChecks.check(name, watches, sources);
		clusters = (clusters != null) ? clusters : ClusterScope.LOCAL;
	}

	/**
	 * Create a definition that reconciles on the local cluster only.
	 * @param name the controller name
	 * @param watches the primary watched type
	 * @param owns the owned types
	 * @param namespaces the namespaces to watch; empty for all
	 * @param labelSelector the label selector of watched objects
	 * @param reconciler what runs on each key
	 * @param maxConcurrentReconciles the number of workers
	 * @param rateLimiter the limiter for failures and requeues
	 * @param reconcileTimeout the reconcile timeout
	 * @param cacheSyncTimeout the cache sync timeout
	 * @param resyncPeriod the resync period
	 * @param updateFilters the update filters by name
	 * @param mappedWatches the mapped watches
	 * @param indexes the declared indexes
	 * @param sources the sources
	 */
	public ControllerDefinition(String name, Class<? extends KubernetesObject> watches,
			List<Class<? extends KubernetesObject>> owns, Set<String> namespaces, LabelSelectorMatcher labelSelector,
			ReconcileLogic<?> reconciler, int maxConcurrentReconciles, RateLimiter<Request> rateLimiter,
			Duration reconcileTimeout, Duration cacheSyncTimeout, Duration resyncPeriod,
			Map<String, UpdatePredicate> updateFilters, List<MappedWatch<?>> mappedWatches, List<FieldIndex<?>> indexes,
			List<Source> sources) {
		this(name, watches, owns, namespaces, labelSelector, reconciler, maxConcurrentReconciles, rateLimiter,
				reconcileTimeout, cacheSyncTimeout, resyncPeriod, updateFilters, mappedWatches, indexes, sources,
				ClusterScope.LOCAL);
	}

	/**
	 * Return the types of the mapped watches, which the controller lists and watches
	 * besides its primary and owned types.
	 * @return the mapped types
	 */
	public List<Class<? extends KubernetesObject>> mappedTypes() {
		return this.mappedWatches.stream().<Class<? extends KubernetesObject>>map(MappedWatch::type).toList();
	}

	/**
	 * Return every type the controller's informers cache: the watched type, the owned
	 * types and the types of the mapped watches.
	 * @return the types, the watched one first
	 */
	public List<Class<? extends KubernetesObject>> cachedTypes() {
		List<Class<? extends KubernetesObject>> types = new ArrayList<>();
		types.add(this.watches);
		types.addAll(this.owns);
		types.addAll(mappedTypes());
		return types;
	}

	private static void requireNotNegative(String name, String field, Duration value) {
		Objects.requireNonNull(value, () -> "Controller '" + name + "' " + field + " must not be null");
		if (value.isNegative()) {
			throw new IllegalArgumentException(
					"Controller '" + name + "' " + field + " must not be negative, was " + value);
		}
	}

	/**
	 * Return a copy of this definition with another rate limiter.
	 * @param rateLimiter the limiter
	 * @return the copy
	 */
	public ControllerDefinition withRateLimiter(RateLimiter<Request> rateLimiter) {
		return toBuilder().rateLimiter(rateLimiter).reconcile(this.reconciler);
	}

	/**
	 * Return a copy of this definition that runs another reconcile logic, for example the
	 * same function with a finalizer.
	 * @param reconciler the reconcile logic
	 * @return the copy
	 */
	public ControllerDefinition withReconciler(ReconcileLogic<?> reconciler) {
		return toBuilder().reconcile(reconciler);
	}

	/**
	 * Return a copy of this definition with other sources, for example with a period a
	 * property sets.
	 * @param sources the sources
	 * @return the copy
	 */
	public ControllerDefinition withSources(List<Source> sources) {
		ControllerDefinitionBuilder<?> builder = toBuilder();
		builder.sources.clear();
		builder.sources.addAll(sources);
		return builder.reconcile(this.reconciler);
	}

	private ControllerDefinitionBuilder<?> toBuilder() {
		ControllerDefinitionBuilder<?> builder = new ControllerDefinitionBuilder<>(this.watches).named(this.name)
			.namespaces(this.namespaces)
			.maxConcurrentReconciles(this.maxConcurrentReconciles)
			.rateLimiter(this.rateLimiter)
			.reconcileTimeout(this.reconcileTimeout)
			.cacheSyncTimeout(this.cacheSyncTimeout)
			.resyncPeriod(this.resyncPeriod);
		builder.labelSelector = this.labelSelector;
		builder.owns.addAll(this.owns);
		builder.updateFilters.putAll(this.updateFilters);
		builder.mappedWatches.addAll(this.mappedWatches);
		builder.indexes.addAll(this.indexes);
		builder.sources.addAll(this.sources);
		builder.clusters(this.clusters);
		return builder;
	}

	/**
	 * Start building a definition of a controller of the given type. Its name is the
	 * type's kind in lower case, such as {@code configmap}, unless
	 * {@link ControllerDefinitionBuilder#named(String) named} otherwise.
	 * @param <T> the watched type
	 * @param watches the primary watched type
	 * @return a builder
	 */
	public static <T extends KubernetesObject> ControllerDefinitionBuilder<T> builder(Class<T> watches) {
		return new ControllerDefinitionBuilder<>(watches);
	}

}
