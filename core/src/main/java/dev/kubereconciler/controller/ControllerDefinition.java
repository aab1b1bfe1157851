package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.LabelMatcher;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.EventFilter;
import dev.kubereconciler.reconcile.EventPredicate;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * Everything a {@link ControllerManager} needs to run one controller: what it watches,
 * how it reconciles, and how it is throttled.
 *
 * @param name the controller name, unique in a manager; used as the metric label
 * @param watches the primary watched type
 * @param owns types whose changes reconcile their controlling owner of the primary type
 * @param namespaces the namespaces to watch; empty for all namespaces
 * @param labelSelector the label selector that watched objects must match
 * @param reconciler the reconcile function
 * @param maxConcurrentReconciles the number of workers, default 1
 * @param rateLimiter the limiter for failures and {@code Result.requeue()}, default
 * {@link RateLimiters#controllerDefault()}
 * @param reconcileTimeout how long one reconcile may run before it is interrupted and
 * retried, default 10 minutes; zero for no timeout
 * @param cacheSyncTimeout how long to wait for the informers to sync before start fails,
 * default 2 minutes
 * @param resyncPeriod how often every watched object is reconciled again without a
 * change, default 10 hours; zero for never
 * @param eventFilters filters, by name, that every update of a primary object must pass
 * to reconcile it (ANDed, in order); creates and deletes always pass; none by default
 * @param mappedWatches other watched types whose changes reconcile the keys a mapper
 * returns
 */
public record ControllerDefinition(String name, Class<? extends KubernetesObject> watches,
		List<Class<? extends KubernetesObject>> owns, Set<String> namespaces, LabelMatcher labelSelector,
		ReconcileFunction reconciler, int maxConcurrentReconciles, RateLimiter<Request> rateLimiter,
		Duration reconcileTimeout, Duration cacheSyncTimeout, Duration resyncPeriod,
		Map<String, EventPredicate> eventFilters, List<MappedWatch<?>> mappedWatches) {

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
		owns = List.copyOf(owns);
		namespaces = Set.copyOf(namespaces);
		labelSelector = (labelSelector != null) ? labelSelector : LabelMatcher.everything();
		if (maxConcurrentReconciles < 1) {
			throw new IllegalArgumentException("Controller '" + name
					+ "' maxConcurrentReconciles must be at least 1, was " + maxConcurrentReconciles);
		}
		requireNotNegative(name, "reconcileTimeout", reconcileTimeout);
		requireNotNegative(name, "cacheSyncTimeout", cacheSyncTimeout);
		requireNotNegative(name, "resyncPeriod", resyncPeriod);
		eventFilters = (eventFilters != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(eventFilters))
				: Map.of();
		mappedWatches = (mappedWatches != null) ? List.copyOf(mappedWatches) : List.of();
	}

	/**
	 * Return the types of the mapped watches, which the controller lists and watches
	 * besides its primary and owned types.
	 * @return the mapped types
	 */
	public List<Class<? extends KubernetesObject>> mappedTypes() {
		return this.mappedWatches.stream().<Class<? extends KubernetesObject>>map(MappedWatch::type).toList();
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
		return new ControllerDefinition(this.name, this.watches, this.owns, this.namespaces, this.labelSelector,
				this.reconciler, this.maxConcurrentReconciles, rateLimiter, this.reconcileTimeout,
				this.cacheSyncTimeout, this.resyncPeriod, this.eventFilters, this.mappedWatches);
	}

	/**
	 * Return a copy of this definition with another reconciler.
	 * @param reconciler the reconciler
	 * @return the copy
	 */
	public ControllerDefinition withReconciler(ReconcileFunction reconciler) {
		return new ControllerDefinition(this.name, this.watches, this.owns, this.namespaces, this.labelSelector,
				reconciler, this.maxConcurrentReconciles, this.rateLimiter, this.reconcileTimeout,
				this.cacheSyncTimeout, this.resyncPeriod, this.eventFilters, this.mappedWatches);
	}

	/**
	 * Start building a definition.
	 * @param name the controller name
	 * @param watches the primary watched type
	 * @return a builder
	 */
	public static Builder builder(String name, Class<? extends KubernetesObject> watches) {
		return new Builder(name, watches);
	}

	/**
	 * Builder for {@link ControllerDefinition}, with the documented defaults.
	 */
	public static final class Builder {

		private final String name;

		private final Class<? extends KubernetesObject> watches;

		private final List<Class<? extends KubernetesObject>> owns = new ArrayList<>();

		private final Set<String> namespaces = new LinkedHashSet<>();

		private LabelMatcher labelSelector = LabelMatcher.everything();

		private @Nullable ReconcileFunction reconciler;

		private int maxConcurrentReconciles = 1;

		private @Nullable RateLimiter<Request> rateLimiter;

		private Duration reconcileTimeout = DEFAULT_RECONCILE_TIMEOUT;

		private Duration cacheSyncTimeout = DEFAULT_CACHE_SYNC_TIMEOUT;

		private Duration resyncPeriod = DEFAULT_RESYNC_PERIOD;

		private final Map<String, EventPredicate> eventFilters = new LinkedHashMap<>();

		private final List<MappedWatch<?>> mappedWatches = new ArrayList<>();

		private Builder(String name, Class<? extends KubernetesObject> watches) {
			this.name = name;
			this.watches = watches;
		}

		public Builder owns(Class<? extends KubernetesObject> type) {
			this.owns.add(type);
			return this;
		}

		public Builder namespaces(String... namespaces) {
			return namespaces(List.of(namespaces));
		}

		public Builder namespaces(Iterable<String> namespaces) {
			this.namespaces.clear();
			namespaces.forEach(this.namespaces::add);
			return this;
		}

		public Builder labelSelector(String labelSelector) {
			this.labelSelector = LabelMatcher.parse(labelSelector);
			return this;
		}

		public Builder reconciler(ReconcileFunction reconciler) {
			this.reconciler = reconciler;
			return this;
		}

		public Builder maxConcurrentReconciles(int maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
			return this;
		}

		public Builder rateLimiter(RateLimiter<Request> rateLimiter) {
			this.rateLimiter = rateLimiter;
			return this;
		}

		public Builder reconcileTimeout(Duration reconcileTimeout) {
			this.reconcileTimeout = reconcileTimeout;
			return this;
		}

		public Builder cacheSyncTimeout(Duration cacheSyncTimeout) {
			this.cacheSyncTimeout = cacheSyncTimeout;
			return this;
		}

		public Builder resyncPeriod(Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
			return this;
		}

		/**
		 * Add built-in event filters, named by their {@link EventFilter#label() label}.
		 * @param filters the filters
		 * @return this builder
		 */
		public Builder eventFilters(EventFilter... filters) {
			for (EventFilter filter : filters) {
				eventFilter(filter.label(), filter);
			}
			return this;
		}

		/**
		 * Add an event filter; its name labels the count of the updates it drops.
		 * @param name the filter name
		 * @param filter the filter
		 * @return this builder
		 */
		public Builder eventFilter(String name, EventPredicate filter) {
			Objects.requireNonNull(filter, () -> "Event filter '" + name + "' must not be null");
			if (this.eventFilters.putIfAbsent(name, filter) != null) {
				throw new IllegalArgumentException(
						"Controller '" + this.name + "' has two event filters named '" + name + "'");
			}
			return this;
		}

		/**
		 * Watch another type and reconcile the keys the mapper returns for each of its
		 * changes.
		 * @param <T> the watched type
		 * @param type the watched type
		 * @param mapper maps a changed object to primary keys
		 * @return this builder
		 */
		public <T extends KubernetesObject> Builder maps(Class<T> type, RequestMapper<? super T> mapper) {
			this.mappedWatches.add(new MappedWatch<>(type, mapper));
			return this;
		}

		public ControllerDefinition build() {
			RateLimiter<Request> limiter = (this.rateLimiter != null) ? this.rateLimiter
					: RateLimiters.controllerDefault();
			return new ControllerDefinition(this.name, this.watches, this.owns, this.namespaces, this.labelSelector,
					Objects.requireNonNull(this.reconciler,
							() -> "Controller '" + this.name + "' must have a reconciler"),
					this.maxConcurrentReconciles, limiter, this.reconcileTimeout, this.cacheSyncTimeout,
					this.resyncPeriod, this.eventFilters, this.mappedWatches);
		}

	}

}
