package dev.kubereconciler.reconcile;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The built-in update filters, controller-runtime's predicates of {@code pkg/predicate}.
 * Each lets an update of a primary object through only when something it looks at
 * changed; creates and deletes always pass.
 */
public enum UpdateFilter implements UpdatePredicate {

	/**
	 * Pass updates that changed {@code metadata.generation}. The API server raises the
	 * generation for spec changes only, not for status-subresource or metadata writes, so
	 * a controller that writes status does not reconcile its own write again
	 * ({@code GenerationChangedPredicate}). Objects without a generation, such as
	 * ConfigMaps, never pass an update.
	 */
	GENERATION_CHANGED {

		@Override
		public boolean test(KubernetesObject oldObject, KubernetesObject newObject) {
			return !Objects.equals(metadata(oldObject).getGeneration(), metadata(newObject).getGeneration());
		}

	},

	/**
	 * Pass updates that changed the labels ({@code LabelChangedPredicate}). An absent and
	 * an empty map are the same.
	 */
	LABELS_CHANGED {

		@Override
		public boolean test(KubernetesObject oldObject, KubernetesObject newObject) {
			return !orEmpty(metadata(oldObject).getLabels()).equals(orEmpty(metadata(newObject).getLabels()));
		}

	},

	/**
	 * Pass updates that changed the annotations ({@code AnnotationChangedPredicate}). An
	 * absent and an empty map are the same.
	 */
	ANNOTATIONS_CHANGED {

		@Override
		public boolean test(KubernetesObject oldObject, KubernetesObject newObject) {
			return !orEmpty(metadata(oldObject).getAnnotations()).equals(orEmpty(metadata(newObject).getAnnotations()));
		}

	},

	/**
	 * Pass updates that changed {@code metadata.resourceVersion}, dropping the resyncs
	 * that changed nothing ({@code ResourceVersionChangedPredicate}).
	 */
	RESOURCE_VERSION_CHANGED {

		@Override
		public boolean test(KubernetesObject oldObject, KubernetesObject newObject) {
			return !Objects.equals(metadata(oldObject).getResourceVersion(), metadata(newObject).getResourceVersion());
		}

	};

	/**
	 * Return the name used in properties and metric labels, such as
	 * {@code generation-changed}.
	 * @return the name
	 */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * Return the filter of the given {@link #label() label}.
	 * @param label the label, such as {@code generation-changed}
	 * @return the filter, or {@code null} if no built-in filter has that label
	 */
	public static @Nullable UpdateFilter fromLabel(String label) {
		for (UpdateFilter filter : values()) {
			if (filter.label().equals(label)) {
				return filter;
			}
		}
		return null;
	}

	private static V1ObjectMeta metadata(KubernetesObject object) {
		V1ObjectMeta metadata = (object != null) ? object.getMetadata() : null;
		return (metadata != null) ? metadata : new V1ObjectMeta();
	}

	private static Map<String, String> orEmpty(Map<String, String> map) {
		return (map != null) ? map : Map.of();
	}

}
