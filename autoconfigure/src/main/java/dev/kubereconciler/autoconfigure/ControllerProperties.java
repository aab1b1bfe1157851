package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of one controller under {@code kube-reconciler.controllers.<name>}. Every unset
 * field inherits from {@code kube-reconciler.defaults}, then from the {@code @Reconciler}
 * annotation; properties win over the annotation.
 */
public class ControllerProperties {

	/**
	 * Whether this controller runs.
	 */
	private Boolean enabled;

	/**
	 * Number of workers reconciling in parallel.
	 */
	private Integer maxConcurrentReconciles;

	/**
	 * How long one reconcile may run before it is interrupted and retried; 0 for no timeout.
	 */
	private Duration reconcileTimeout;

	/**
	 * How long to wait for the informer caches to sync before startup fails.
	 */
	private Duration cacheSyncTimeout;

	/**
	 * How often every watched object is reconciled again without a change; 0 for never.
	 */
	private Duration resyncPeriod;

	/**
	 * Namespaces to watch; empty for all namespaces.
	 */
	private List<String> namespaces;

	/**
	 * Label selector that watched objects must match, such as "app=web,tier!=cache".
	 */
	private String labelSelector;

	/**
	 * Event filters that every update of a primary object must pass to reconcile it:
	 * generation-changed, labels-changed, annotations-changed, resource-version-changed, or the
	 * name of an EventPredicate bean. Replaces the filters set in code; empty for none.
	 */
	private List<String> eventFilters;

	/**
	 * Rate limiter for failures and Result.requeue().
	 */
	private final RateLimiterProperties rateLimiter = new RateLimiterProperties();

	public Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(Boolean enabled) {
		this.enabled = enabled;
	}

	public Integer getMaxConcurrentReconciles() {
		return this.maxConcurrentReconciles;
	}

	public void setMaxConcurrentReconciles(Integer maxConcurrentReconciles) {
		this.maxConcurrentReconciles = maxConcurrentReconciles;
	}

	public Duration getReconcileTimeout() {
		return this.reconcileTimeout;
	}

	public void setReconcileTimeout(Duration reconcileTimeout) {
		this.reconcileTimeout = reconcileTimeout;
	}

	public Duration getCacheSyncTimeout() {
		return this.cacheSyncTimeout;
	}

	public void setCacheSyncTimeout(Duration cacheSyncTimeout) {
		this.cacheSyncTimeout = cacheSyncTimeout;
	}

	public Duration getResyncPeriod() {
		return this.resyncPeriod;
	}

	public void setResyncPeriod(Duration resyncPeriod) {
		this.resyncPeriod = resyncPeriod;
	}

	public List<String> getNamespaces() {
		return this.namespaces;
	}

	public void setNamespaces(List<String> namespaces) {
		this.namespaces = (namespaces != null) ? new ArrayList<>(namespaces) : null;
	}

	public String getLabelSelector() {
		return this.labelSelector;
	}

	public void setLabelSelector(String labelSelector) {
		this.labelSelector = labelSelector;
	}

	public List<String> getEventFilters() {
		return this.eventFilters;
	}

	public void setEventFilters(List<String> eventFilters) {
		this.eventFilters = (eventFilters != null) ? new ArrayList<>(eventFilters) : null;
	}

	public RateLimiterProperties getRateLimiter() {
		return this.rateLimiter;
	}

}
