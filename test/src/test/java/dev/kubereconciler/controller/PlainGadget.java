package dev.kubereconciler.controller;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.ResourceCoordinates;

/**
 * The {@link Gadget} resource read into classes as the docs allow a user to write them: a
 * status without {@code equals}, and an untyped map whose numbers client-java reads back
 * as doubles.
 */
@ResourceCoordinates(group = Gadget.GROUP, version = Gadget.VERSION, kind = "Gadget", plural = Gadget.PLURAL)
public class PlainGadget extends TestResource<V1ObjectMeta> implements KubernetesObject {

	private Spec spec;

	private Status status;

	public PlainGadget() {
		super(Gadget.GROUP + "/" + Gadget.VERSION, "Gadget");
	}

	public Spec getSpec() {
		return this.spec;
	}

	public Status getStatus() {
		return this.status;
	}

	public void setStatus(Status status) {
		this.status = status;
	}

	/**
	 * The desired state.
	 */
	public static class Spec {

		String color;

	}

	/**
	 * The observed state, a plain class without {@code equals}.
	 */
	public static class Status {

		String color;

		int replicas;

		Map<String, Object> details;

		Status() {
		}

		Status(String color, int replicas, Map<String, Object> details) {
			this.color = color;
			this.replicas = replicas;
			this.details = details;
		}

	}

}
