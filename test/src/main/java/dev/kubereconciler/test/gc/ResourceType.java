package dev.kubereconciler.test.gc;

import org.jspecify.annotations.Nullable;

/**
 * A resource the collector knows from discovery: where to list, watch, get and delete its
 * objects.
 *
 * @param group the API group, empty for the core group
 * @param version the version
 * @param plural the resource, as in the URL
 * @param kind the kind
 * @param namespaced whether its objects live in namespaces
 */
record ResourceType(String group, String version, String plural, String kind, boolean namespaced) {

	String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	/**
	 * The path of the collection, across namespaces when {@code namespace} is
	 * {@code null}, or of one object when {@code name} is given.
	 */
	String path(@Nullable String namespace, @Nullable String name) {
		StringBuilder path = new StringBuilder(this.group.isEmpty() ? "/api/" : "/apis/" + this.group + "/")
			.append(this.version);
		if (this.namespaced && namespace != null) {
			path.append("/namespaces/").append(namespace);
		}
		path.append('/').append(this.plural);
		if (name != null) {
			path.append('/').append(name);
		}
		return path.toString();
	}

	@Override
	public String toString() {
		return this.group.isEmpty() ? this.plural : this.plural + "." + this.group;
	}

}
