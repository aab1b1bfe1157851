package dev.kubereconciler.test;

/**
 * Thrown when the {@code etcd} and {@code kube-apiserver} binaries for a
 * {@link KubernetesTestServer} cannot be found; the message says where they were looked
 * for and how to provide them.
 */
public class MissingKubernetesTestAssetsException extends IllegalStateException {

	MissingKubernetesTestAssetsException(String message) {
		super(message);
	}

}
