package dev.kubereconciler.reconcile;

import java.util.Objects;

/**
 * Identifies the object to reconcile: its namespace (empty for cluster-scoped objects)
 * and name.
 *
 * @param namespace the namespace, or an empty string for cluster-scoped objects
 * @param name the name
 */
public record Request(String namespace, String name) {

	public Request {
		Objects.requireNonNull(namespace, "namespace must not be null");
		Objects.requireNonNull(name, "name must not be null");
	}

	/**
	 * Parse a {@code namespace/name} or {@code name} key, as client-java's cache keys are
	 * written.
	 * @param key the key
	 * @return the request
	 */
	public static Request fromKey(String key) {
		int slash = key.indexOf('/');
		return (slash < 0) ? new Request("", key) : new Request(key.substring(0, slash), key.substring(slash + 1));
	}

	/**
	 * Return the {@code namespace/name} key, or {@code name} for cluster-scoped objects.
	 * @return the key
	 */
	public String key() {
		return this.namespace.isEmpty() ? this.name : this.namespace + "/" + this.name;
	}

	@Override
	public String toString() {
		return key();
	}

}
