package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cluster.ClusterScope;

/**
 * Settings of one controller under {@code kube-reconciler.controllers.<name>}. Every
 * unset field inherits from {@code kube-reconciler.defaults}, then from the
 * {@code @Reconciler} annotation; properties win over the annotation.
 */
public class ControllerProperties {

	/**
	 * Whether this controller runs.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Number of workers reconciling in parallel.
	 */
	private @Nullable Integer maxConcurrentReconciles;

	/**
	 * How long one reconcile may run before it is interrupted and retried; 0 for no
	 * timeout.
	 */
	private @Nullable Duration reconcileTimeout;

	/**
	 * How long to wait for the informer caches to sync before startup fails.
	 */
	private @Nullable Duration cacheSyncTimeout;

	/**
	 * How often every watched object is reconciled again without a change; 0 for never.
	 */
	private @Nullable Duration resyncPeriod;

	/**
	 * Namespaces to watch; empty for all namespaces.
	 */
	private @Nullable List<String> namespaces;

	/**
	 * Label selector that watched objects must match, such as "app=web,tier!=cache".
	 */
	private @Nullable String labelSelector;

	/**
	 * Finalizer, such as "example.com/cleanup", that the controller adds to its objects
	 * and removes once its cleanup succeeded; overrides @Reconciler(finalizer).
	 */
	private @Nullable String finalizer;

	/**
	 * Event filters that every update of a primary object must pass to reconcile it:
	 * generation-changed, labels-changed, annotations-changed, resource-version-changed,
	 * or the name of an UpdatePredicate bean. Replaces the filters set in code; empty for
	 * none.
	 */
	private @Nullable List<String> eventFilters;

	/**
	 * Rate limiter for failures and Result.requeue().
	 */
	private final RateLimiterProperties rateLimiter = new RateLimiterProperties();

	/**
	 * Settings of the controller's dependents, by dependent name: turn one off or change
	 * its ready timeout.
	 */
	private final Map<String, DependentProperties> dependents = new LinkedHashMap<>();

	public @Nullable String getFinalizer() {
		return this.finalizer;
	}

	public void setFinalizer(@Nullable String finalizer) {
		this.finalizer = finalizer;
	}

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Integer getMaxConcurrentReconciles() {
		return this.maxConcurrentReconciles;
	}

	public void setMaxConcurrentReconciles(@Nullable Integer maxConcurrentReconciles) {
		this.maxConcurrentReconciles = maxConcurrentReconciles;
	}

	public @Nullable Duration getReconcileTimeout() {
		return this.reconcileTimeout;
	}

	public void setReconcileTimeout(@Nullable Duration reconcileTimeout) {
		this.reconcileTimeout = reconcileTimeout;
	}

	public @Nullable Duration getCacheSyncTimeout() {
		return this.cacheSyncTimeout;
	}

	public void setCacheSyncTimeout(@Nullable Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
	}

	public @Nullable Duration getResyncPeriod() {
		return this.resyncPeriod;
	}

	public void setResyncPeriod(@Nullable Duration resyncPeriod) {
		this.resyncPeriod = resyncPeriod;
	}

	public @Nullable List<String> getNamespaces() {
		return this.namespaces;
	}

	public void setNamespaces(@Nullable List<String> namespaces) {
		this.namespaces = (namespaces != null) ? new ArrayList<>(namespaces) : null;
	}

	public @Nullable String getLabelSelector() {
		return this.labelSelector;
	}

	public void setLabelSelector(@Nullable String labelSelector) {
		this.labelSelector = labelSelector;
	}

	public @Nullable List<String> getEventFilters() {
		return this.eventFilters;
	}

	public void setEventFilters(@Nullable List<String> eventFilters) {
		this.eventFilters = (eventFilters != null) ? new ArrayList<>(eventFilters) : null;
	}

	public RateLimiterProperties getRateLimiter() {
		return this.rateLimiter;
	}

	public Map<String, DependentProperties> getDependents() {
		return this.dependents;
	}

	/**
	 * Settings of the controller's sources, by source name: change the period of a
	 * polling or timer source.
	 */
	private final Map<String, SourceProperties> sources = new LinkedHashMap<>();

	public Map<String, SourceProperties> getSources() {
		return this.sources;
	}

	/**
	 * Where the controller reconciles: "local" (the manager's own cluster), "fleet" (the
	 * clusters that kube-reconciler.clusters and the cluster providers engage) or "both";
	 * overrides @Reconciler(clusters).
	 */
	private @Nullable ClusterScope clusters;

	public @Nullable ClusterScope getClusters() {
		return this.clusters;
	}

	public void setClusters(@Nullable ClusterScope clusters) {
		this.clusters = clusters;
	}

}
