package dev.kubereconciler.sample.conversion;

import java.util.List;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * The first version of a {@code Gadget}: a flat size and color, tags, and a free-text
 * note that the next version dropped.
 */
@ResourceCoordinates(group = GadgetV1.GROUP, version = "v1alpha1", kind = "Gadget", plural = "gadgets")
public class GadgetV1alpha1 extends CustomResource<GadgetV1alpha1.Spec, Void> {

	/**
	 * The desired state.
	 *
	 * @param size how big
	 * @param color its color
	 * @param tags free tags
	 * @param note a note, which v1 keeps in an annotation
	 */
	public record Spec(Integer size, String color, List<String> tags, String note) {

	}

}
