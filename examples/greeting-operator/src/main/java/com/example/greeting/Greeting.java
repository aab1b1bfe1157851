package com.example.greeting;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;

import dev.kubereconciler.crd.Description;
import dev.kubereconciler.crd.PrinterColumn;
import dev.kubereconciler.crd.ShortNames;
import dev.kubereconciler.crd.ValidationRule;
import dev.kubereconciler.reconcile.CustomResource;
import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * A {@code Greeting} of {@code example.com/v1}: a message, and whether it is published.
 * Its CRD is generated from this class at build time.
 */
@KubernetesResource(group = "example.com", version = "v1", kind = "Greeting", plural = "greetings")
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
