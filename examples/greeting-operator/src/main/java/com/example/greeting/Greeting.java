package com.example.greeting;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * A {@code Greeting} of {@code example.com/v1}: a message, and whether it is published.
 */
@KubernetesResource(group = "example.com", version = "v1", kind = "Greeting", plural = "greetings")
public class Greeting implements KubernetesObject {

	private String apiVersion = "example.com/v1";

	private String kind = "Greeting";

	private V1ObjectMeta metadata;

	private Spec spec;

	private Status status;

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public void setMetadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
	}

	public Spec getSpec() {
		return this.spec;
	}

	public void setSpec(Spec spec) {
		this.spec = spec;
	}

	public Status getStatus() {
		return this.status;
	}

	public void setStatus(Status status) {
		this.status = status;
	}

	/**
	 * What to publish.
	 */
	public static class Spec {

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
