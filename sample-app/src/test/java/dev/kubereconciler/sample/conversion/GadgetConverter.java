package dev.kubereconciler.sample.conversion;

import java.util.HashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.webhook.conversion.VersionConverter;

/**
 * Converts gadgets between v1alpha1 and the hub, v1, losing nothing: what one version has
 * and the other lacks travels in an annotation.
 */
public class GadgetConverter implements VersionConverter<GadgetV1, GadgetV1alpha1> {

	static final String FINISH = "conversion.sample.kubereconciler.dev/finish";

	static final String NOTE = "conversion.sample.kubereconciler.dev/note";

	@Override
	public GadgetV1 toHub(GadgetV1alpha1 spoke) {
		Map<String, String> annotations = annotations(spoke.getMetadata());
		String finish = annotations.remove(FINISH);
		GadgetV1alpha1.Spec spec = spoke.getSpec();
		GadgetV1 hub = new GadgetV1();
		if (spec != null) {
			// an empty object where the spoke had nothing would be a change of its own
			GadgetV1.Dimensions dimensions = (spec.size() != null) ? new GadgetV1.Dimensions(spec.size()) : null;
			GadgetV1.Paint paint = (spec.color() != null || finish != null) ? new GadgetV1.Paint(spec.color(), finish)
					: null;
			hub.setSpec(new GadgetV1.Spec(dimensions, paint, spec.tags()));
			put(annotations, NOTE, spec.note());
		}
		hub.setMetadata(spoke.getMetadata().annotations(annotations.isEmpty() ? null : annotations));
		return hub;
	}

	@Override
	public GadgetV1alpha1 fromHub(GadgetV1 hub) {
		Map<String, String> annotations = annotations(hub.getMetadata());
		String note = annotations.remove(NOTE);
		GadgetV1.Spec spec = hub.getSpec();
		GadgetV1alpha1 spoke = new GadgetV1alpha1();
		if (spec != null) {
			Integer size = (spec.dimensions() != null) ? spec.dimensions().size() : null;
			String color = (spec.paint() != null) ? spec.paint().color() : null;
			spoke.setSpec(new GadgetV1alpha1.Spec(size, color, spec.tags(), note));
			put(annotations, FINISH, (spec.paint() != null) ? spec.paint().finish() : null);
		}
		spoke.setMetadata(hub.getMetadata().annotations(annotations.isEmpty() ? null : annotations));
		return spoke;
	}

	private static Map<String, String> annotations(V1ObjectMeta metadata) {
		return (metadata.getAnnotations() != null) ? new HashMap<>(metadata.getAnnotations()) : new HashMap<>();
	}

	private static void put(Map<String, String> annotations, String key, String value) {
		if (value != null) {
			annotations.put(key, value);
		}
	}

}
