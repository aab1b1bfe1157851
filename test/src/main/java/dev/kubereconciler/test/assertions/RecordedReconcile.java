package dev.kubereconciler.test.assertions;

import java.util.Locale;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;

/**
 * One finished reconcile that a {@link ReconcileRecorder} heard.
 *
 * @param controller the controller's name
 * @param request the key
 * @param outcome how it ended
 * @param error the error it ended with, or {@code null}
 */
public record RecordedReconcile(String controller, Request request, ReconcileOutcome outcome,
		@Nullable Throwable error) {

	public RecordedReconcile {
		Objects.requireNonNull(controller, "controller must not be null");
		Objects.requireNonNull(request, "request must not be null");
		Objects.requireNonNull(outcome, "outcome must not be null");
	}

	@Override
	public String toString() {
		return this.outcome.name().toLowerCase(Locale.ROOT) + ((this.error != null) ? " (" + this.error + ")" : "");
	}

}
