package dev.kubereconciler.webhook;

import java.util.HashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.webhook.conversion.VersionConverter;

/**
 * Two versions of a test custom resource and the converter between them: v1alpha1 has a
 * flat {@code size} and {@code color}, v1 nests the size and adds {@code finish}, which
 * v1alpha1 keeps in an annotation.
 */
final class Gizmos {

	static final String FINISH_ANNOTATION = "gizmos.webhook.test.kubereconciler.dev/finish";

	private Gizmos() {
	}

	@ResourceCoordinates(group = "webhook.test.kubereconciler.dev", version = "v1alpha1", kind = "Gizmo",
			plural = "gizmos")
	static class GizmoV1alpha1 extends CustomResource<GizmoV1alpha1.Spec, Void> {

		record Spec(Integer size, String color) {

		}

	}

	@ResourceCoordinates(group = "webhook.test.kubereconciler.dev", version = "v1", kind = "Gizmo", plural = "gizmos")
	static class GizmoV1 extends CustomResource<GizmoV1.Spec, Void> {

		record Spec(Dimensions dimensions, String color, String finish) {

		}

		record Dimensions(Integer size) {

		}

	}

	static final class Converter implements VersionConverter<GizmoV1, GizmoV1alpha1> {

		@Override
		public GizmoV1 toHub(GizmoV1alpha1 spoke) {
			GizmoV1 hub = new GizmoV1();
			Map<String, String> annotations = new HashMap<>(annotations(spoke.getMetadata()));
			String finish = annotations.remove(FINISH_ANNOTATION);
			hub.setMetadata(spoke.getMetadata().annotations(annotations.isEmpty() ? null : annotations));
			GizmoV1alpha1.Spec spec = spoke.getSpec();
			if (spec != null) {
				hub.setSpec(new GizmoV1.Spec(new GizmoV1.Dimensions(spec.size()), spec.color(), finish));
			}
			return hub;
		}

		@Override
		public GizmoV1alpha1 fromHub(GizmoV1 hub) {
			GizmoV1alpha1 spoke = new GizmoV1alpha1();
			Map<String, String> annotations = new HashMap<>(annotations(hub.getMetadata()));
			GizmoV1.Spec spec = hub.getSpec();
			if (spec != null) {
				if (spec.finish() != null) {
					annotations.put(FINISH_ANNOTATION, spec.finish());
				}
				spoke.setSpec(new GizmoV1alpha1.Spec((spec.dimensions() != null) ? spec.dimensions().size() : null,
						spec.color()));
			}
			spoke.setMetadata(hub.getMetadata().annotations(annotations.isEmpty() ? null : annotations));
			return spoke;
		}

		private static Map<String, String> annotations(V1ObjectMeta metadata) {
			return (metadata.getAnnotations() != null) ? metadata.getAnnotations() : Map.of();
		}

	}

}
