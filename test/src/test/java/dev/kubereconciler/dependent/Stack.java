package dev.kubereconciler.dependent;

import java.util.List;

import io.kubernetes.client.openapi.models.V1Condition;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * The primary of the dependents tests: an application stack that owns a ConfigMap, a
 * Secret, a Deployment, a Service and a varying number of worker ConfigMaps; its CRD is
 * {@code dev/kubereconciler/dependent/stacks.yaml}.
 */
@ResourceCoordinates(group = "deps.test.kubereconciler.dev", version = "v1", kind = "Stack", plural = "stacks")
public class Stack extends CustomResource<Stack.Spec, Stack.Status> {

	/**
	 * What the stack runs.
	 *
	 * @param image the container image
	 * @param greeting what the ConfigMap says
	 * @param workers how many worker ConfigMaps
	 * @param exposed whether a Service exposes it
	 */
	public record Spec(String image, String greeting, int workers, boolean exposed) {
	}

	/**
	 * What the controller saw.
	 *
	 * @param conditions the conditions, of which the dependents keep Ready
	 */
	public record Status(List<V1Condition> conditions) {
	}

}
