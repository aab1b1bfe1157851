package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Settings of one dependent of a controller under
 * {@code kube-reconciler.controllers.<name>.dependents.<dependent>}. An unset field keeps
 * what the code declared, so that a property never undoes a timeout chosen in code it
 * does not mention.
 */
public class DependentProperties {

	/**
	 * Whether the dependent is applied (default true); false deletes what it applied.
	 */
	private @Nullable Boolean enabled;

	/**
	 * How long it may stay not ready before the primary says so (default: the code's,
	 * else 10m); 0 for no limit.
	 */
	private @Nullable Duration readyTimeout;

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Duration getReadyTimeout() {
		return this.readyTimeout;
	}

	public void setReadyTimeout(@Nullable Duration readyTimeout) {
		this.readyTimeout = readyTimeout;
	}

}
