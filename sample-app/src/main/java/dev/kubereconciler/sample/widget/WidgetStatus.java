package dev.kubereconciler.sample.widget;

import java.util.Objects;

import com.google.gson.annotations.SerializedName;

/**
 * What the controller last observed of a widget: the phase, the external resource's id
 * and the generation of the spec that it reflects.
 */
public class WidgetStatus {

	/** The external resource matches the spec. */
	public static final String READY = "Ready";

	/** The last call to the external API failed; the controller retries with backoff. */
	public static final String ERROR = "Error";

	@SerializedName("phase")
	private String phase;

	@SerializedName("externalId")
	private String externalId;

	@SerializedName("observedGeneration")
	private Long observedGeneration;

	@SerializedName("message")
	private String message;

	public String getPhase() {
		return this.phase;
	}

	public void setPhase(String phase) {
		this.phase = phase;
	}

	public WidgetStatus phase(String phase) {
		this.phase = phase;
		return this;
	}

	public String getExternalId() {
		return this.externalId;
	}

	public void setExternalId(String externalId) {
		this.externalId = externalId;
	}

	public WidgetStatus externalId(String externalId) {
		this.externalId = externalId;
		return this;
	}

	public Long getObservedGeneration() {
		return this.observedGeneration;
	}

	public void setObservedGeneration(Long observedGeneration) {
		this.observedGeneration = observedGeneration;
	}

	public WidgetStatus observedGeneration(Long observedGeneration) {
		this.observedGeneration = observedGeneration;
		return this;
	}

	public String getMessage() {
		return this.message;
	}

	public void setMessage(String message) {
		this.message = message;
	}

	public WidgetStatus message(String message) {
		this.message = message;
		return this;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof WidgetStatus other) && Objects.equals(this.phase, other.phase)
				&& Objects.equals(this.externalId, other.externalId)
				&& Objects.equals(this.observedGeneration, other.observedGeneration)
				&& Objects.equals(this.message, other.message);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.phase, this.externalId, this.observedGeneration, this.message);
	}

	@Override
	public String toString() {
		return "{phase=" + this.phase + ", externalId=" + this.externalId + ", observedGeneration="
				+ this.observedGeneration + ", message=" + this.message + "}";
	}

}
