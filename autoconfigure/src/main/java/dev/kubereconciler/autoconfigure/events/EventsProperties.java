package dev.kubereconciler.autoconfigure.events;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the Kubernetes Events that controllers record, under
 * {@code kube-reconciler.events}.
 */
@ConfigurationProperties("kube-reconciler.events")
public class EventsProperties {

	/**
	 * Whether controllers write Kubernetes Events; when off there is no EventRecorders
	 * bean, and code that asks for a recorder gets EventRecorder.noop().
	 */
	private boolean enabled = true;

	/**
	 * How many events may wait for the writer before new ones are dropped.
	 */
	private int bufferCapacity = 1000;

	/**
	 * The reportingInstance of every event; defaults to the HOSTNAME environment variable
	 * (the pod name), else the host name.
	 */
	private @Nullable String reportingInstance;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getBufferCapacity() {
		return this.bufferCapacity;
	}

	public void setBufferCapacity(int bufferCapacity) {
		this.bufferCapacity = bufferCapacity;
	}

	public @Nullable String getReportingInstance() {
		return this.reportingInstance;
	}

	public void setReportingInstance(@Nullable String reportingInstance) {
		this.reportingInstance = reportingInstance;
	}

}
