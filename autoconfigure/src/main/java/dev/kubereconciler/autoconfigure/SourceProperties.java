package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Settings of one source of a controller under
 * {@code kube-reconciler.controllers.<name>.sources.<source>}. An unset field keeps what
 * the code declared.
 */
public class SourceProperties {

	/**
	 * Period of a polling, per-object polling or timer source (default: the code's).
	 */
	private @Nullable Duration period;

	public @Nullable Duration getPeriod() {
		return this.period;
	}

	public void setPeriod(@Nullable Duration period) {
		this.period = period;
	}

}
