package dev.kubereconciler.internal.context;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;

import dev.kubereconciler.reconcile.KubernetesObjects;
import dev.kubereconciler.reconcile.WriteFailedException;

/**
 * Names the writes of a {@link KubernetesWriter} and the objects they were for, so that a
 * refused write says which it was instead of client-java's bare "Message: ".
 */
final class WriteFailures {

	private WriteFailures() {
	}

	static WriteFailedException of(String write, KubernetesObject object, ApiException ex) {
		return WriteFailedException.of(write, KubernetesObjects.describe(object), ex);
	}

	/**
	 * Return the name of a write by its request.
	 * @param method the HTTP method
	 * @param contentType the body's content type
	 * @param path the path, which ends in {@code /status} for the status subresource
	 * @return the name, such as {@code "status update"}
	 */
	static String write(String method, String contentType, String path) {
		String write = switch (method) {
			case "POST" -> "create";
			case "PUT" -> "update";
			case "DELETE" -> "delete";
			default -> contentType.equals(KubernetesWriter.APPLY_PATCH) ? "apply"
					: contentType.equals(KubernetesWriter.MERGE_PATCH) ? "merge patch" : "patch";
		};
		return path.endsWith("/status") ? "status " + write : write;
	}

}
