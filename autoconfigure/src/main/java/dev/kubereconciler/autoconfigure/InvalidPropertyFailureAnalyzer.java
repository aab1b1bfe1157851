package dev.kubereconciler.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link InvalidPropertyException}: the property, its value, and the fix.
 */
class InvalidPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidPropertyException cause) {
		String description = String.format("Invalid kube-reconciler configuration:%n%n    Property: %s%n    Value: %s%n"
				+ "    Reason: %s%n", cause.getProperty(), cause.getValue(), cause.getReason());
		return new FailureAnalysis(description, cause.getAction(), cause);
	}

}
