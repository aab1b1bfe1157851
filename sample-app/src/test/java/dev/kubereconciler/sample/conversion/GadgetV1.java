package dev.kubereconciler.sample.conversion;

import java.util.List;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.StorageVersion;

/**
 * The stored version of a {@code Gadget}, and the hub of its conversions: the size moved
 * under {@code dimensions}, the color under {@code paint} with a new {@code finish},
 * which v1alpha1 keeps in an annotation.
 */
@StorageVersion
@ResourceCoordinates(group = GadgetV1.GROUP, version = "v1", kind = "Gadget", plural = "gadgets")
public class GadgetV1 extends CustomResource<GadgetV1.Spec, Void> {

	/** The API group. */
	public static final String GROUP = "conversion.sample.kubereconciler.dev";

	/**
	 * The desired state.
	 *
	 * @param dimensions its dimensions
	 * @param paint its paint
	 * @param tags free tags
	 */
	public record Spec(Dimensions dimensions, Paint paint, List<String> tags) {

	}

	/**
	 * Dimensions.
	 *
	 * @param size how big
	 */
	public record Dimensions(Integer size) {

	}

	/**
	 * Paint.
	 *
	 * @param color the color
	 * @param finish matte or glossy
	 */
	public record Paint(String color, String finish) {

	}

}
