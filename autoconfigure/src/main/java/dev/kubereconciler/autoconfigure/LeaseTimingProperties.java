package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import dev.kubereconciler.leaderelection.LeaseTiming;

/**
 * The timings of a Lease as properties, for leader election and sharding alike: the
 * property names stay those of the group that extends this class. Each group gives its
 * own defaults; {@link LeaseTiming} checks the values.
 */
public abstract class LeaseTimingProperties {

	/**
	 * How long a Lease is valid without renewal; another instance takes it over after it.
	 */
	private Duration leaseDuration;

	/**
	 * How long the holder keeps trying to renew before it gives up; with sharding, how
	 * long after its last renewal a partition's keys are still dispatched.
	 */
	private Duration renewDeadline;

	/**
	 * How often candidates try to acquire or renew.
	 */
	private Duration retryPeriod;

	protected LeaseTimingProperties(LeaseTiming defaults) {
		this.leaseDuration = defaults.leaseDuration();
		this.renewDeadline = defaults.renewDeadline();
		this.retryPeriod = defaults.retryPeriod();
	}

	public Duration getLeaseDuration() {
		return this.leaseDuration;
	}

	public void setLeaseDuration(Duration leaseDuration) {
		this.leaseDuration = leaseDuration;
	}

	public Duration getRenewDeadline() {
		return this.renewDeadline;
	}

	public void setRenewDeadline(Duration renewDeadline) {
		this.renewDeadline = renewDeadline;
	}

	public Duration getRetryPeriod() {
		return this.retryPeriod;
	}

	public void setRetryPeriod(Duration retryPeriod) {
		this.retryPeriod = retryPeriod;
	}

}
