package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.cache.LabelSelectorMatcher;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.WatchedCluster;
import dev.kubereconciler.controller.ReconcileLogic.FunctionLogic;
import dev.kubereconciler.controller.ReconcileLogic.ObjectLogic;
import dev.kubereconciler.controller.ReconcileLogic.RequestLogic;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.DependentOptions;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.dependent.DesiredObject;
import dev.kubereconciler.dependent.DesiredObjects;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;
import dev.kubereconciler.reconcile.RequestReconciler;
import dev.kubereconciler.reconcile.UpdateFilter;
import dev.kubereconciler.reconcile.UpdatePredicate;
import dev.kubereconciler.source.ObjectPoll;
import dev.kubereconciler.source.Source;

/**
 * Builder for {@link ControllerDefinition}, with the documented defaults: the watched
 * type is named once, in {@link ControllerDefinition#builder(Class)}, and the finalizer
 * and the dependents take it as theirs. Every setter is optional; one of the
 * {@code reconcile} methods ends the definition.
 *
 * @param <T> the watched type
 */
public final class ControllerDefinitionBuilder<T extends KubernetesObject> {

	// about 450 lines, of which most are the Javadoc of one setter per option, as in
	// controller-runtime's builder; joining the finalizer and the dependents to the
	// reconcile function is LogicAssembler's job

	private final Class<T> watches;

	private @Nullable String name;

	final List<Class<? extends KubernetesObject>> owns = new ArrayList<>();

	private final Set<String> namespaces = new LinkedHashSet<>();

	LabelSelectorMatcher labelSelector = LabelSelectorMatcher.everything();

	private int maxConcurrentReconciles = 1;

	private @Nullable RateLimiter<Request> rateLimiter;

	private Duration reconcileTimeout = ControllerDefinition.DEFAULT_RECONCILE_TIMEOUT;

	private Duration cacheSyncTimeout = ControllerDefinition.DEFAULT_CACHE_SYNC_TIMEOUT;

	private Duration resyncPeriod = ControllerDefinition.DEFAULT_RESYNC_PERIOD;

	final Map<String, UpdatePredicate> updateFilters = new LinkedHashMap<>();

	final List<MappedWatch<?>> mappedWatches = new ArrayList<>();

	final List<FieldIndex<?>> indexes = new ArrayList<>();

	private final LogicAssembler<T> logic;

	ControllerDefinitionBuilder(Class<T> watches) {
		this.watches = Objects.requireNonNull(watches, "watched type must not be null");
		this.logic = new LogicAssembler<>(watches);
	}

	/**
	 * Name the controller; it must be unique in its manager, and labels its metrics and
	 * properties ({@code kube-reconciler.controllers.<name>}). Default: the watched kind
	 * in lower case.
	 * @param name the name
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> named(String name) {
		this.name = name;
		return this;
	}

	/**
	 * Also watch a type whose objects the watched type owns: a change of an owned object
	 * reconciles its controlling owner. None by default.
	 * @param type the owned type
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> owns(Class<? extends KubernetesObject> type) {
		this.owns.add(type);
		return this;
	}

	/**
	 * Watch only these namespaces. Default: all namespaces.
	 * @param namespaces the namespaces
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> namespaces(String... namespaces) {
		return namespaces(List.of(namespaces));
	}

	/**
	 * Watch only these namespaces, replacing any set before. Default: all namespaces.
	 * @param namespaces the namespaces
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> namespaces(Iterable<String> namespaces) {
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
	public ControllerDefinitionBuilder<T> labelSelector(String labelSelector) {
		this.labelSelector = LabelSelectorMatcher.parse(labelSelector);
		return this;
	}

	/**
	 * Set the number of workers, controller-runtime's {@code MaxConcurrentReconciles}.
	 * Default: 1.
	 * @param maxConcurrentReconciles the number of workers
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> maxConcurrentReconciles(int maxConcurrentReconciles) {
		this.maxConcurrentReconciles = maxConcurrentReconciles;
		return this;
	}

	/**
	 * Set the limiter of failures and {@code Result.requeue()}. Default:
	 * {@link RateLimiters#controllerDefault()}.
	 * @param rateLimiter the limiter
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> rateLimiter(RateLimiter<Request> rateLimiter) {
		this.rateLimiter = rateLimiter;
		return this;
	}

	/**
	 * Set how long one reconcile may run before it is interrupted and retried. Default:
	 * 10 minutes; zero for no timeout.
	 * @param reconcileTimeout the timeout
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> reconcileTimeout(Duration reconcileTimeout) {
		this.reconcileTimeout = reconcileTimeout;
		return this;
	}

	/**
	 * Set how long to wait for the informers to sync before the start fails. Default: 2
	 * minutes.
	 * @param cacheSyncTimeout the timeout
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> cacheSyncTimeout(Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
		return this;
	}

	/**
	 * Set how often every watched object is reconciled again without a change. Default:
	 * 10 hours; zero for never.
	 * @param resyncPeriod the period
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> resyncPeriod(Duration resyncPeriod) {
		this.resyncPeriod = resyncPeriod;
		return this;
	}

	/**
	 * Add built-in event filters, named by their {@link UpdateFilter#label() label}. None
	 * by default.
	 * @param filters the filters
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> updateFilters(UpdateFilter... filters) {
		for (UpdateFilter filter : filters) {
			updateFilter(filter.label(), filter);
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
	public ControllerDefinitionBuilder<T> updateFilter(String name, UpdatePredicate filter) {
		Objects.requireNonNull(filter, () -> "Event filter '" + name + "' must not be null");
		if (this.updateFilters.putIfAbsent(name, filter) != null) {
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
	public <M extends KubernetesObject> ControllerDefinitionBuilder<T> maps(Class<M> type,
			RequestMapper<? super M> mapper) {
		this.mappedWatches.add(new MappedWatch<>(type, mapper));
		return this;
	}

	/**
	 * Index a type this controller caches, as controller-runtime's {@code IndexField}:
	 * {@code ReconcileContext.listByIndex} and {@link #mapsByIndex} then look objects up
	 * by value instead of scanning them. None by default, besides the built-in owner
	 * index.
	 * @param <R> the indexed type
	 * @param type the indexed type, watched, owned or mapped by a controller
	 * @param name the index name, unique per type
	 * @param values the values of an object, never {@code null}
	 * @return this builder
	 */
	public <R extends KubernetesObject> ControllerDefinitionBuilder<T> index(Class<R> type, String name,
			Function<? super R, ? extends Collection<String>> values) {
		this.indexes.add(new FieldIndex<>(type, name, values));
		return this;
	}

	/**
	 * Index a type this controller caches with an index declared elsewhere, such as one
	 * several controllers share.
	 * @param index the index
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> index(FieldIndex<?> index) {
		this.indexes.add(Objects.requireNonNull(index, "index must not be null"));
		return this;
	}

	/**
	 * Watch another type and reconcile the primary objects whose index {@code index}
	 * holds a value that {@code values} returns for the changed object, looked up rather
	 * than scanned: for example, a Secret reconciles the Backups indexed by the
	 * {@code namespace/name} of the Secret they name. The index must be declared on the
	 * primary type ({@link #index}, or a {@code FieldIndex} given to the manager).
	 * @param <M> the watched type
	 * @param type the watched type
	 * @param index the name of the primary type's index
	 * @param values the values of a changed object to look up
	 * @return this builder
	 */
	public <M extends KubernetesObject> ControllerDefinitionBuilder<T> mapsByIndex(Class<M> type, String index,
			Function<? super M, ? extends Collection<String>> values) {
		this.mappedWatches.add(MappedWatch.byIndex(type, index, values));
		return this;
	}

	/**
	 * Add a finalizer to every object before its first reconcile, and run the cleaner
	 * once the object's deletion is requested; the finalizer is removed when the cleaner
	 * returns {@link dev.kubereconciler.reconcile.Result#done()}. None by default.
	 * @param finalizer the finalizer, qualified with a domain, such as
	 * {@code example.com/cleanup}
	 * @param cleaner the cleanup
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> finalizer(String finalizer, Cleaner<T> cleaner) {
		this.logic.finalizer(finalizer, cleaner);
		return this;
	}

	/**
	 * Add a dependent declared elsewhere, such as one shared by several controllers:
	 * objects that each primary object owns, which the controller applies by server-side
	 * apply before each reconcile, in {@code dependsOn} order, waits for, and prunes once
	 * unwanted. Its type is owned, so that its changes reconcile the owner. None by
	 * default.
	 * @param dependent the dependent
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> dependent(Dependent<T, ?> dependent) {
		this.logic.dependent(dependent);
		return this;
	}

	/**
	 * Add a dependent of exactly one object, declared inline with this controller's type
	 * as its primary:
	 * {@code .dependent("config", V1ConfigMap.class, (widget, context) -> configMap(widget))}.
	 * The controller applies it by server-side apply before each reconcile, and prunes it
	 * once unwanted; its type is owned, so that its changes reconcile the owner.
	 * @param <R> the dependent type
	 * @param name the dependent's name, a DNS label unique in this controller
	 * @param type the dependent's model class
	 * @param desired the desired object
	 * @return this builder
	 */
	public <R extends KubernetesObject> ControllerDefinitionBuilder<T> dependent(String name, Class<R> type,
			DesiredObject<T, R> desired) {
		return dependent(Dependent.of(name, type, desired));
	}

	/**
	 * Add a dependent of exactly one object with options, such as
	 * {@code (options) -> options.dependsOn("config").readyWhen(ReadyPostcondition.deploymentAvailable())}.
	 * @param <R> the dependent type
	 * @param name the dependent's name, a DNS label unique in this controller
	 * @param type the dependent's model class
	 * @param desired the desired object
	 * @param customizer sets {@code dependsOn}, {@code readyWhen}, {@code reconcileWhen}
	 * and the ready timeout
	 * @return this builder
	 */
	public <R extends KubernetesObject> ControllerDefinitionBuilder<T> dependent(String name, Class<R> type,
			DesiredObject<T, R> desired, Consumer<DependentOptions<T, R>> customizer) {
		return dependent(Dependent.of(name, type, desired, customizer));
	}

	/**
	 * Add a bulk dependent, a varying number of objects of one kind, declared inline with
	 * this controller's type as its primary.
	 * @param <R> the dependent type
	 * @param name the dependent's name, a DNS label unique in this controller
	 * @param type the dependent's model class
	 * @param desired the desired objects
	 * @return this builder
	 */
	public <R extends KubernetesObject> ControllerDefinitionBuilder<T> bulkDependent(String name, Class<R> type,
			DesiredObjects<T, R> desired) {
		return dependent(Dependent.bulk(name, type, desired));
	}

	/**
	 * Add a bulk dependent with options.
	 * @param <R> the dependent type
	 * @param name the dependent's name, a DNS label unique in this controller
	 * @param type the dependent's model class
	 * @param desired the desired objects
	 * @param customizer sets {@code dependsOn}, {@code readyWhen}, {@code reconcileWhen}
	 * and the ready timeout
	 * @return this builder
	 */
	public <R extends KubernetesObject> ControllerDefinitionBuilder<T> bulkDependent(String name, Class<R> type,
			DesiredObjects<T, R> desired, Consumer<DependentOptions<T, R>> customizer) {
		return dependent(Dependent.bulk(name, type, desired, customizer));
	}

	/**
	 * Keep a {@code Ready} condition in the primary's {@code status.conditions} that says
	 * whether every dependent is ready, and names the first that is not and why. It is
	 * written only when it changes. Off by default.
	 * @param readyCondition whether to write it
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> readyCondition(boolean readyCondition) {
		this.logic.readyCondition(readyCondition);
		return this;
	}

	/**
	 * End the definition with logic that reconciles a private copy of each cached object;
	 * it is not called once the object is gone.
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
	 * End the definition with a function of the request alone, the leanest path: it gets
	 * no context and reads nothing from the caches unless it keeps its own references.
	 * @param reconciler the reconcile function
	 * @return the definition
	 */
	public ControllerDefinition reconcile(ReconcileFunction reconciler) {
		return build(new FunctionLogic<>(this.watches, reconciler, null, Dependents.none()));
	}

	/**
	 * End the definition with the reconcile logic of another definition of the same type,
	 * such as one a bean declares; a finalizer and dependents set on this builder are
	 * added to it.
	 * @param reconciler the reconcile logic
	 * @return the definition
	 * @throws IllegalArgumentException if the logic is for another type
	 */
	public ControllerDefinition reconcile(ReconcileLogic<?> reconciler) {
		return build(this.logic.typed(reconciler, name()));
	}

	private ControllerDefinition build(ReconcileLogic<T> reconciler) {
		ReconcileLogic<T> spec = this.logic.assemble(reconciler);
		for (Class<? extends KubernetesObject> type : spec.dependents().types()) {
			if (!this.owns.contains(type)) {
				this.owns.add(type);
			}
		}
		requireWatchedClusters();
		RateLimiter<Request> limiter = (this.rateLimiter != null) ? this.rateLimiter : RateLimiters.controllerDefault();
		return new ControllerDefinition(name(), this.watches, this.owns, this.namespaces, this.labelSelector, spec,
				this.maxConcurrentReconciles, limiter, this.reconcileTimeout, this.cacheSyncTimeout, this.resyncPeriod,
				this.updateFilters, this.mappedWatches, this.indexes, this.sources, this.clusters);
	}

	private String name() {
		return (this.name != null) ? this.name : ResourceType.of(this.watches).kind().toLowerCase(Locale.ROOT);
	}

	// sources (issue 41.1): keys from outside the watches

	final List<Source> sources = new ArrayList<>();

	/**
	 * Add a source of keys beside the watches, such as
	 * {@code Source.polling("inventory", Duration.ofMinutes(1), inventory::stateByKey)}:
	 * it starts when the workers start and stops with them, and its keys take the queue,
	 * the manager gate and the limiters that watch events take. None by default.
	 * @param source the source, unique by name in this controller
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> source(Source source) {
		this.sources.add(Objects.requireNonNull(source, "source must not be null"));
		return this;
	}

	/**
	 * Add a source that polls the external state of each cached primary object on a
	 * period and reconciles the objects whose state changed.
	 * @param name the source's name
	 * @param period the time from the end of one round of polls to the start of the next
	 * @param poll returns an object's external state, compared with {@code equals}
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> pollEach(String name, Duration period, ObjectPoll<? super T> poll) {
		return source(Source.perObject(name, this.watches, period, poll));
	}

	// clusters (issue 40): the local cluster, the fleet, or both

	private ClusterScope clusters = ClusterScope.LOCAL;

	/**
	 * Reconcile on the manager's own cluster ({@link ClusterScope#LOCAL}, the default),
	 * on every cluster a cluster provider engages ({@link ClusterScope#FLEET}), or on
	 * both; each request names its cluster, and the reconcile context reads and writes
	 * there.
	 * @param clusters where to reconcile
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> clusters(ClusterScope clusters) {
		this.clusters = Objects.requireNonNull(clusters, "clusters must not be null");
		return this;
	}

	/**
	 * Watch another type in one cluster and reconcile each request the mapper returns in
	 * the cluster it names, as multicluster-runtime's sources map across clusters: for
	 * example a Secret of the hub ({@link WatchedCluster#local()}) mapped to Widgets of
	 * member {@code two}, with {@code new Request(namespace, name, "two")}. Requests of a
	 * cluster the controller does not run on, or that is not engaged, are dropped.
	 * @param <M> the watched type
	 * @param cluster the cluster watched: {@link WatchedCluster#local()} or
	 * {@link WatchedCluster#named(String) a member}; {@link WatchedCluster#own()} is
	 * {@link #maps(Class, RequestMapper)}
	 * @param type the watched type
	 * @param mapper maps a changed object to requests, each naming its cluster (empty for
	 * the local one)
	 * @return this builder
	 */
	public <M extends KubernetesObject> ControllerDefinitionBuilder<T> mapsFrom(WatchedCluster cluster, Class<M> type,
			RequestMapper<? super M> mapper) {
		this.mappedWatches.add(new MappedWatch<>(type, mapper, cluster));
		return this;
	}

	/**
	 * Add a mapped watch made elsewhere, such as one of a definition bean, with the
	 * cluster it watches.
	 * @param watch the mapped watch
	 * @return this builder
	 */
	public ControllerDefinitionBuilder<T> maps(MappedWatch<?> watch) {
		this.mappedWatches.add(Objects.requireNonNull(watch, "watch must not be null"));
		return this;
	}

	// a member's watch runs in what the fleet engages, which only fleet controllers get
	private void requireWatchedClusters() {
		for (MappedWatch<?> mapped : this.mappedWatches) {
			if (mapped.isAcross() && !mapped.cluster().is("") && !this.clusters.includesFleet()) {
				throw new IllegalArgumentException("Controller '" + name() + "' maps " + mapped.type().getSimpleName()
						+ " from cluster '" + mapped.cluster()
						+ "' of the fleet but runs on the local cluster only; set clusters(ClusterScope.FLEET) or "
						+ "clusters(ClusterScope.BOTH), or watch the local cluster with WatchedCluster.local()");
			}
		}
	}

}
