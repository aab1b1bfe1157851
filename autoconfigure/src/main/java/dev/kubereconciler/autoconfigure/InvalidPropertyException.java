package dev.kubereconciler.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at startup when a {@code kube-reconciler.*} property, or the annotation
 * attribute it overrides, has a value that cannot work. Reported by
 * {@link InvalidPropertyFailureAnalyzer}.
 */
public class InvalidPropertyException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final transient @Nullable Object value;

	private final @Nullable String reason;

	private final String action;

	public InvalidPropertyException(String property, @Nullable Object value, @Nullable String reason, String action) {
		super("Invalid value '" + value + "' for '" + property + "': " + reason);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	public String getProperty() {
		return this.property;
	}

	public @Nullable Object getValue() {
		return this.value;
	}

	public @Nullable String getReason() {
		return this.reason;
	}

	public String getAction() {
		return this.action;
	}

}
