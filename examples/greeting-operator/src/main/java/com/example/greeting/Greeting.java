package com.example.greeting;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.Description;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ShortNames;
import dev.kubereconciler.model.ValidationRule;

/**
 * A {@code Greeting} of {@code example.com/v1}: a message, and whether it is published.
 * Its CRD is generated from this class at build time.
 */
@ResourceCoordinates(group = "example.com", version = "v1", kind = "Greeting", plural = "greetings")
@ShortNames("greet")
@PrinterColumn(name = "Message", jsonPath = ".spec.message")
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
public class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> {

	/**
	 * What to publish.
	 */
	@ValidationRule(value = "size(self.message) > 0", message = "the message must not be empty")
	public static class Spec {

		@Description("The message the greeting's ConfigMap publishes.")
		private String message;

		public String getMessage() {
			return this.message;
		}

		public void setMessage(String message) {
			this.message = message;
		}

	}

	/**
	 * What was published.
	 */
	public static class Status {

		private Long observedGeneration;

		private List<V1Condition> conditions = new ArrayList<>();

		public Long getObservedGeneration() {
			return this.observedGeneration;
		}

		public void setObservedGeneration(Long observedGeneration) {
			this.observedGeneration = observedGeneration;
		}

		public List<V1Condition> getConditions() {
			return this.conditions;
		}

	}

}
