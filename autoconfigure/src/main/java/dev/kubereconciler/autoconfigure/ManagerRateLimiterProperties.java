package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Settings of the manager-level token bucket that every reconcile of every controller
 * passes, under {@code kube-reconciler.manager.rate-limiter}.
 */
public class ManagerRateLimiterProperties extends TokenBucketProperties {

	/**
	 * Longest a worker waits at the gate; a key that would wait longer gives its token
	 * back and waits in the queue instead. Unset means no limit.
	 */
	private @Nullable Duration maxWait;

	/**
	 * Which causes of a reconcile pass through the bucket: event, retry, requeue-after.
	 */
	private Set<Trigger> appliesTo = EnumSet.copyOf(Trigger.queued());

	/**
	 * Whether qps and burst are each replica's (replica) or the whole cluster's, divided
	 * among the live members when sharding is enabled (cluster).
	 */
	private Scope scope = Scope.REPLICA;

	/**
	 * Whether the clusters of a fleet share the bucket (shared: one budget, whatever
	 * cluster asked) or each has one of the same qps and burst, the local cluster
	 * included (split).
	 */
	private ManagerGate.AcrossClusters acrossClusters = ManagerGate.AcrossClusters.SHARED;

	public @Nullable Duration getMaxWait() {
		return this.maxWait;
	}

	public void setMaxWait(@Nullable Duration maxWait) {
		this.maxWait = maxWait;
	}

	public Set<Trigger> getAppliesTo() {
		return this.appliesTo;
	}

	public void setAppliesTo(Set<Trigger> appliesTo) {
		this.appliesTo = appliesTo;
	}

	public Scope getScope() {
		return this.scope;
	}

	public void setScope(Scope scope) {
		this.scope = scope;
	}

	public ManagerGate.AcrossClusters getAcrossClusters() {
		return this.acrossClusters;
	}

	public void setAcrossClusters(ManagerGate.AcrossClusters acrossClusters) {
		this.acrossClusters = acrossClusters;
	}

	/**
	 * Whose rate the manager bucket's qps and burst are.
	 */
	public enum Scope {

		/**
		 * Each replica's own rate.
		 */
		REPLICA,

		/**
		 * The whole cluster's rate: with sharding, each replica gets qps/N and burst/N of
		 * the N live members, retuned when they change.
		 */
		CLUSTER

	}

}
