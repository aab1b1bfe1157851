package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.LabelMatcher;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.DependentOptions;
import dev.kubereconciler.dependent.DesiredObject;
import dev.kubereconciler.dependent.DesiredObjects;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.controller.ReconcileLogic.Cleanup;
import dev.kubereconciler.controller.ReconcileLogic.FunctionLogic;
import dev.kubereconciler.controller.ReconcileLogic.ObjectLogic;
import dev.kubereconciler.controller.ReconcileLogic.RequestLogic;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.reconcile.RequestReconciler;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.EventFilter;
import dev.kubereconciler.reconcile.EventPredicate;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * Everything a controller manager needs to run one controller: what it watches, how it
 * reconciles, and how it is throttled. A definition names its watched type once, in
 * {@link #builder(Class)}, and takes its reconcile logic last, as controller-runtime's
 * builder does:
 *
 * <pre class="code">
 * ControllerDefinition definition = ControllerDefinition.builder(Widget.class)
 *     .owns(V1ConfigMap.class)
 *     .finalizer("example.com/cleanup", (widget, context) -&gt; Result.done())
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
 * @param eventFilters filters, by name, that every update of a primary object must pass
 * to reconcile it (ANDed, in order); creates and deletes always pass; none by default
 * @param mappedWatches other watched types whose changes reconcile the keys a mapper
 * returns
 */
public record ControllerDefinition(String name, Class<? extends KubernetesObject> watches,
		List<Class<? extends KubernetesObject>> owns, Set<String> namespaces, LabelMatcher labelSelector,
		ReconcileLogic<?> reconciler, int maxConcurrentReconciles, RateLimiter<Request> rateLimiter,
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
		if (!reconciler.type().isAssignableFrom(watches)) {
			throw new IllegalArgumentException("Controller '" + name + "' watches " + watches.getName()
					+ " but its reconciler takes " + reconciler.type().getName());
		}
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

	private Builder<?> toBuilder() {
		Builder<?> builder = new Builder<>(this.watches).named(this.name)
			.namespaces(this.namespaces)
			.maxConcurrentReconciles(this.maxConcurrentReconciles)
			.rateLimiter(this.rateLimiter)
			.reconcileTimeout(this.reconcileTimeout)
			.cacheSyncTimeout(this.cacheSyncTimeout)
			.resyncPeriod(this.resyncPeriod);
		builder.labelSelector = this.labelSelector;
		builder.owns.addAll(this.owns);
		builder.eventFilters.putAll(this.eventFilters);
		builder.mappedWatches.addAll(this.mappedWatches);
		return builder;
	}

	/**
	 * Start building a definition of a controller of the given type. Its name is the
	 * type's kind in lower case, such as {@code configmap}, unless
	 * {@link Builder#named(String) named} otherwise.
	 * @param <T> the watched type
	 * @param watches the primary watched type
	 * @return a builder
	 */
	public static <T extends KubernetesObject> Builder<T> builder(Class<T> watches) {
		return new Builder<>(watches);
	}

	/**
	 * Builder for {@link ControllerDefinition}, with the documented defaults. Every
	 * setter is optional; one of the {@code reconcile} methods ends the definition.
	 *
	 * @param <T> the watched type
	 */
	public static final class Builder<T extends KubernetesObject> {

		private final Class<T> watches;

		private @Nullable String name;

		private final List<Class<? extends KubernetesObject>> owns = new ArrayList<>();

		private final Set<String> namespaces = new LinkedHashSet<>();

		private LabelMatcher labelSelector = LabelMatcher.everything();

		private int maxConcurrentReconciles = 1;

		private @Nullable RateLimiter<Request> rateLimiter;

		private Duration reconcileTimeout = DEFAULT_RECONCILE_TIMEOUT;

		private Duration cacheSyncTimeout = DEFAULT_CACHE_SYNC_TIMEOUT;

		private Duration resyncPeriod = DEFAULT_RESYNC_PERIOD;

		private final Map<String, EventPredicate> eventFilters = new LinkedHashMap<>();

		private final List<MappedWatch<?>> mappedWatches = new ArrayList<>();

		private @Nullable Cleanup<T> cleanup;

		private final List<Dependent<T, ?>> dependents = new ArrayList<>();

		private boolean readyCondition;

		private Builder(Class<T> watches) {
			this.watches = Objects.requireNonNull(watches, "watched type must not be null");
		}

		/**
		 * Name the controller; it must be unique in its manager, and labels its metrics
		 * and properties ({@code kube-reconciler.controllers.<name>}). Default: the
		 * watched kind in lower case.
		 * @param name the name
		 * @return this builder
		 */
		public Builder<T> named(String name) {
			this.name = name;
			return this;
		}

		/**
		 * Also watch a type whose objects the watched type owns: a change of an owned
		 * object reconciles its controlling owner. None by default.
		 * @param type the owned type
		 * @return this builder
		 */
		public Builder<T> owns(Class<? extends KubernetesObject> type) {
			this.owns.add(type);
			return this;
		}

		/**
		 * Watch only these namespaces. Default: all namespaces.
		 * @param namespaces the namespaces
		 * @return this builder
		 */
		public Builder<T> namespaces(String... namespaces) {
			return namespaces(List.of(namespaces));
		}

		/**
		 * Watch only these namespaces, replacing any set before. Default: all namespaces.
		 * @param namespaces the namespaces
		 * @return this builder
		 */
		public Builder<T> namespaces(Iterable<String> namespaces) {
			this.namespaces.clear();
			namespaces.forEach(this.namespaces::add);
			return this;
		}

		/**
		 * Watch only the objects that match a label selector, in the syntax of
		 * {@code kubectl -l}. Default: every object.
		 * @param labelSelector the selector
		 * @return this builder
		 */
		public Builder<T> labelSelector(String labelSelector) {
			this.labelSelector = LabelMatcher.parse(labelSelector);
			return this;
		}

		/**
		 * Set the number of workers, controller-runtime's
		 * {@code MaxConcurrentReconciles}. Default: 1.
		 * @param maxConcurrentReconciles the number of workers
		 * @return this builder
		 */
		public Builder<T> maxConcurrentReconciles(int maxConcurrentReconciles) {
			this.maxConcurrentReconciles = maxConcurrentReconciles;
			return this;
		}

		/**
		 * Set the limiter of failures and {@code Result.requeue()}. Default:
		 * {@link RateLimiters#controllerDefault()}.
		 * @param rateLimiter the limiter
		 * @return this builder
		 */
		public Builder<T> rateLimiter(RateLimiter<Request> rateLimiter) {
			this.rateLimiter = rateLimiter;
			return this;
		}

		/**
		 * Set how long one reconcile may run before it is interrupted and retried.
		 * Default: 10 minutes; zero for no timeout.
		 * @param reconcileTimeout the timeout
		 * @return this builder
		 */
		public Builder<T> reconcileTimeout(Duration reconcileTimeout) {
			this.reconcileTimeout = reconcileTimeout;
			return this;
		}

		/**
		 * Set how long to wait for the informers to sync before the start fails. Default:
		 * 2 minutes.
		 * @param cacheSyncTimeout the timeout
		 * @return this builder
		 */
		public Builder<T> cacheSyncTimeout(Duration cacheSyncTimeout) {
			this.cacheSyncTimeout = cacheSyncTimeout;
			return this;
		}

		/**
		 * Set how often every watched object is reconciled again without a change.
		 * Default: 10 hours; zero for never.
		 * @param resyncPeriod the period
		 * @return this builder
		 */
		public Builder<T> resyncPeriod(Duration resyncPeriod) {
			this.resyncPeriod = resyncPeriod;
			return this;
		}

		/**
		 * Add built-in event filters, named by their {@link EventFilter#label() label}.
		 * None by default.
		 * @param filters the filters
		 * @return this builder
		 */
		public Builder<T> eventFilters(EventFilter... filters) {
			for (EventFilter filter : filters) {
				eventFilter(filter.label(), filter);
			}
			return this;
		}

		/**
		 * Add an event filter; its name labels the count of the updates it drops. None by
		 * default.
		 * @param name the filter name
		 * @param filter the filter
		 * @return this builder
		 */
		public Builder<T> eventFilter(String name, EventPredicate filter) {
			Objects.requireNonNull(filter, () -> "Event filter '" + name + "' must not be null");
			if (this.eventFilters.putIfAbsent(name, filter) != null) {
				throw new IllegalArgumentException(
						"Controller '" + name() + "' has two event filters named '" + name + "'");
			}
			return this;
		}

		/**
		 * Watch another type and reconcile the keys the mapper returns for each of its
		 * changes. None by default.
		 * @param <M> the watched type
		 * @param type the watched type
		 * @param mapper maps a changed object to primary keys
		 * @return this builder
		 */
		public <M extends KubernetesObject> Builder<T> maps(Class<M> type, RequestMapper<? super M> mapper) {
			this.mappedWatches.add(new MappedWatch<>(type, mapper));
			return this;
		}

		/**
		 * Add a finalizer to every object before its first reconcile, and run the cleaner
		 * once the object's deletion is requested; the finalizer is removed when the
		 * cleaner returns {@link dev.kubereconciler.reconcile.Result#done()}. None by
		 * default.
		 * @param finalizer the finalizer, qualified with a domain, such as
		 * {@code example.com/cleanup}
		 * @param cleaner the cleanup
		 * @return this builder
		 */
		public Builder<T> finalizer(String finalizer, Cleaner<T> cleaner) {
			this.cleanup = new Cleanup<>(finalizer, cleaner);
			return this;
		}

		/**
		 * Add a dependent declared elsewhere, such as one shared by several controllers:
		 * objects that each primary object owns, which the controller applies by
		 * server-side apply before each reconcile, in {@code dependsOn} order, waits for,
		 * and prunes once unwanted. Its type is owned, so that its changes reconcile the
		 * owner. None by default.
		 * @param dependent the dependent
		 * @return this builder
		 */
		public Builder<T> dependent(Dependent<T, ?> dependent) {
			this.dependents.add(Objects.requireNonNull(dependent, "dependent must not be null"));
			return this;
		}

		/**
		 * Add a dependent of exactly one object, declared inline with this controller's
		 * type as its primary:
		 * {@code .dependent("config", V1ConfigMap.class, (widget, context) -> configMap(widget))}.
		 * The controller applies it by server-side apply before each reconcile, and
		 * prunes it once unwanted; its type is owned, so that its changes reconcile the
		 * owner.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in this controller
		 * @param type the dependent's model class
		 * @param desired the desired object
		 * @return this builder
		 */
		public <R extends KubernetesObject> Builder<T> dependent(String name, Class<R> type,
				DesiredObject<T, R> desired) {
			return dependent(Dependent.of(name, type, desired));
		}

		/**
		 * Add a dependent of exactly one object with options, such as
		 * {@code (options) -> options.dependsOn("config").readyWhen(Readiness.deploymentAvailable())}.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in this controller
		 * @param type the dependent's model class
		 * @param desired the desired object
		 * @param customizer sets {@code dependsOn}, {@code readyWhen},
		 * {@code reconcileWhen} and the ready timeout
		 * @return this builder
		 */
		public <R extends KubernetesObject> Builder<T> dependent(String name, Class<R> type,
				DesiredObject<T, R> desired, Consumer<DependentOptions<T, R>> customizer) {
			return dependent(Dependent.of(name, type, desired, customizer));
		}

		/**
		 * Add a bulk dependent, a varying number of objects of one kind, declared inline
		 * with this controller's type as its primary.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in this controller
		 * @param type the dependent's model class
		 * @param desired the desired objects
		 * @return this builder
		 */
		public <R extends KubernetesObject> Builder<T> bulkDependent(String name, Class<R> type,
				DesiredObjects<T, R> desired) {
			return dependent(Dependent.bulk(name, type, desired));
		}

		/**
		 * Add a bulk dependent with options.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in this controller
		 * @param type the dependent's model class
		 * @param desired the desired objects
		 * @param customizer sets {@code dependsOn}, {@code readyWhen},
		 * {@code reconcileWhen} and the ready timeout
		 * @return this builder
		 */
		public <R extends KubernetesObject> Builder<T> bulkDependent(String name, Class<R> type,
				DesiredObjects<T, R> desired, Consumer<DependentOptions<T, R>> customizer) {
			return dependent(Dependent.bulk(name, type, desired, customizer));
		}

		/**
		 * Keep a {@code Ready} condition in the primary's {@code status.conditions} that
		 * says whether every dependent is ready, and names the first that is not and why.
		 * It is written only when it changes. Off by default.
		 * @param readyCondition whether to write it
		 * @return this builder
		 */
		public Builder<T> readyCondition(boolean readyCondition) {
			this.readyCondition = readyCondition;
			return this;
		}

		/**
		 * End the definition with logic that reconciles a private copy of each cached
		 * object; it is not called once the object is gone.
		 * @param reconciler the reconcile logic
		 * @return the definition
		 */
		public ControllerDefinition reconcile(ObjectReconciler<T> reconciler) {
			return build(new ObjectLogic<>(this.watches, reconciler, null, Dependents.none()));
		}

		/**
		 * End the definition with logic that reconciles each request with a context, also
		 * when the object is gone, so that it can clean up what the object left behind.
		 * @param reconciler the reconcile logic
		 * @return the definition
		 */
		public ControllerDefinition reconcileRequests(RequestReconciler<T> reconciler) {
			return build(new RequestLogic<>(this.watches, reconciler, null, Dependents.none()));
		}

		/**
		 * End the definition with a function of the request alone, the leanest path: it
		 * gets no context and reads nothing from the caches unless it keeps its own
		 * references.
		 * @param reconciler the reconcile function
		 * @return the definition
		 */
		public ControllerDefinition reconcile(ReconcileFunction reconciler) {
			return build(new FunctionLogic<>(this.watches, reconciler, null, Dependents.none()));
		}

		/**
		 * End the definition with the reconcile logic of another definition of the same
		 * type, such as one a bean declares; a finalizer and dependents set on this
		 * builder are added to it.
		 * @param reconciler the reconcile logic
		 * @return the definition
		 * @throws IllegalArgumentException if the logic is for another type
		 */
		public ControllerDefinition reconcile(ReconcileLogic<?> reconciler) {
			return build(typed(reconciler));
		}

		// the logic's functions take a supertype of T at least, so they take a T
		@SuppressWarnings("unchecked")
		private ReconcileLogic<T> typed(ReconcileLogic<?> reconciler) {
			if (!reconciler.type().isAssignableFrom(this.watches)) {
				throw new IllegalArgumentException("Controller '" + name() + "' watches " + this.watches.getName()
						+ " but its reconciler takes " + reconciler.type().getName());
			}
			return (ReconcileLogic<T>) reconciler;
		}

		private ControllerDefinition build(ReconcileLogic<T> reconciler) {
			ReconcileLogic<T> spec = reconciler;
			if (this.cleanup != null || !this.dependents.isEmpty() || this.readyCondition) {
				Dependents<T> dependents = spec.dependents();
				if (!this.dependents.isEmpty() || this.readyCondition) {
					List<Dependent<T, ?>> all = new ArrayList<>(dependents.all());
					all.addAll(this.dependents);
					dependents = Dependents.of(all)
						.withReadyCondition(this.readyCondition || dependents.readyCondition());
				}
				spec = spec.with((this.cleanup != null) ? this.cleanup : spec.cleanup(), dependents);
			}
			ModelReflection.check(spec);
			for (Class<? extends KubernetesObject> type : spec.dependents().types()) {
				if (!this.owns.contains(type)) {
					this.owns.add(type);
				}
			}
			RateLimiter<Request> limiter = (this.rateLimiter != null) ? this.rateLimiter
					: RateLimiters.controllerDefault();
			return new ControllerDefinition(name(), this.watches, this.owns, this.namespaces, this.labelSelector, spec,
					this.maxConcurrentReconciles, limiter, this.reconcileTimeout, this.cacheSyncTimeout,
					this.resyncPeriod, this.eventFilters, this.mappedWatches);
		}

		private String name() {
			return (this.name != null) ? this.name : ResourceType.of(this.watches).kind().toLowerCase(Locale.ROOT);
		}

	}

}
