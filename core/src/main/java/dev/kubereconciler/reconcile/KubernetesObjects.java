package dev.kubereconciler.reconcile;

import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.ResourceCoordinates;

/**
 * Names Kubernetes objects in messages the one way the engine does everywhere: the kind,
 * then {@code namespace/name}, or only the name of a cluster-scoped object, as in
 * {@code ConfigMap shop/config} or {@code Namespace team}.
 */
public final class KubernetesObjects {

	private static final String MODELS = "io.kubernetes.client.openapi.models.";

	// client-java's model classes start with their API version: V1ConfigMap,
	// V2HorizontalPodAutoscaler, V1beta1..., CoreV1Event
	private static final Pattern VERSION_PREFIX = Pattern.compile("^([A-Z][a-z]+)?V\\d+((alpha|beta)\\d+)?(?=[A-Z])");

	private KubernetesObjects() {
	}

	/**
	 * Describe an object for a message: kind, namespace and name, or its generated name
	 * while it has none.
	 * @param object the object
	 * @return for example {@code ConfigMap shop/config}
	 */
	public static String describe(KubernetesObject object) {
		String kind = kind(object);
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null) {
			return kind;
		}
		String name = (metadata.getName() != null) ? metadata.getName() : metadata.getGenerateName() + "<generated>";
		String namespace = metadata.getNamespace();
		return kind + " " + ((namespace != null && !namespace.isEmpty()) ? namespace + "/" + name : name);
	}

	/**
	 * Return the kind of an object: its model's {@link ResourceCoordinates#kind()}, else
	 * the kind it carries, else its class name without client-java's version prefix.
	 * @param object the object
	 * @return the kind
	 */
	public static String kind(KubernetesObject object) {
		ResourceCoordinates resource = object.getClass().getAnnotation(ResourceCoordinates.class);
		if (resource != null) {
			return resource.kind();
		}
		String kind = object.getKind();
		if (kind != null && !kind.isEmpty()) {
			return kind;
		}
		String name = object.getClass().getSimpleName();
		return object.getClass().getName().startsWith(MODELS) ? VERSION_PREFIX.matcher(name).replaceFirst("") : name;
	}

}
