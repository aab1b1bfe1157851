package dev.kubereconciler.test.deploy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A container's startup, liveness and readiness probes as the kubelet combines them:
 * liveness and readiness wait for the startup probe; a failed startup or liveness probe
 * restarts the container; readiness alone decides whether it is ready.
 */
final class ReplicaProbes {

	private final @Nullable ProbeRunner startup;

	private final @Nullable ProbeRunner liveness;

	private final @Nullable ProbeRunner readiness;

	private boolean started;

	ReplicaProbes(@Nullable ProbeRunner startup, @Nullable ProbeRunner liveness, @Nullable ProbeRunner readiness) {
		this.startup = startup;
		this.liveness = liveness;
		this.readiness = readiness;
	}

	void reset(Instant now) {
		this.started = this.startup == null;
		for (ProbeRunner probe : probes()) {
			probe.reset(now);
		}
	}

	Outcome tick(Instant now) {
		ProbeRunner startupProbe = this.startup;
		if (!this.started && startupProbe != null) {
			Boolean startupPassing = startupProbe.tick(now);
			if (Boolean.FALSE.equals(startupPassing)) {
				return new Outcome(false, startupProbe.describe());
			}
			if (!Boolean.TRUE.equals(startupPassing)) {
				return new Outcome(false, null);
			}
			this.started = true;
			// liveness and readiness start counting once the container has started
			for (ProbeRunner probe : probes()) {
				if (probe != startupProbe) {
					probe.reset(now);
				}
			}
		}
		ProbeRunner livenessProbe = this.liveness;
		if (livenessProbe != null && Boolean.FALSE.equals(livenessProbe.tick(now))) {
			return new Outcome(false, livenessProbe.describe());
		}
		ProbeRunner readinessProbe = this.readiness;
		boolean ready = (readinessProbe == null) || Boolean.TRUE.equals(readinessProbe.tick(now));
		return new Outcome(ready, null);
	}

	String describe() {
		List<String> states = new ArrayList<>();
		for (ProbeRunner probe : probes()) {
			states.add(probe.describe());
		}
		return states.isEmpty() ? "no probes" : String.join("; ", states);
	}

	private List<ProbeRunner> probes() {
		List<ProbeRunner> probes = new ArrayList<>();
		for (ProbeRunner probe : new ProbeRunner[] { this.startup, this.liveness, this.readiness }) {
			if (probe != null) {
				probes.add(probe);
			}
		}
		return probes;
	}

	/**
	 * The probes' verdict after one tick.
	 *
	 * @param ready whether the container is ready
	 * @param restartReason why the container must restart, or {@code null}
	 */
	record Outcome(boolean ready, @Nullable String restartReason) {

	}

}
