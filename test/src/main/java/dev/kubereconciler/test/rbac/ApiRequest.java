package dev.kubereconciler.test.rbac;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import okhttp3.HttpUrl;

/**
 * One request to the API server, in the attributes the RBAC authorizer decides on, parsed
 * from its method and URL the way the API server's {@code RequestInfoFactory} does.
 *
 * @param verb get, list, watch, create, update, patch, delete or deletecollection; the
 * HTTP method in lower case for a non-resource request
 * @param group the API group, {@code ""} for the core group
 * @param resource the plural resource, empty for a non-resource request
 * @param subresource the subresource, such as {@code status}; empty for none
 * @param namespace the namespace, empty for a cluster-scoped or all-namespaces request
 * @param name the object name, empty for a collection
 * @param path the URL path
 * @param thread the name of the thread that sent it
 */
public record ApiRequest(String verb, String group, String resource, String subresource, String namespace, String name,
		String path, String thread) {

	// RequestInfoFactory's namespaceSubresources
	private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

	/**
	 * Parse a request.
	 * @param method the HTTP method
	 * @param url the URL
	 * @param thread the sending thread's name
	 * @return the request
	 */
	public static ApiRequest of(String method, HttpUrl url, String thread) {
		List<String> parts = url.pathSegments().stream().filter((part) -> !part.isEmpty()).toList();
		String path = url.encodedPath();
		String group;
		int next;
		if (parts.size() >= 2 && parts.get(0).equals("api")) {
			group = "";
			next = 2;
		}
		else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
			group = parts.get(1);
			next = 3;
		}
		else {
			return new ApiRequest(method.toLowerCase(Locale.ROOT), "", "", "", "", "", path, thread);
		}
		List<String> rest = parts.subList(next, parts.size());
		boolean watchPath = !rest.isEmpty() && rest.get(0).equals("watch");
		if (watchPath) {
			rest = rest.subList(1, rest.size());
		}
		String namespace = "";
		// "namespaces/<name>" alone, or followed by one of a namespace's own
		// subresources, is the namespace object; followed by anything else, it scopes
		// the resource that follows
		if (rest.size() >= 2 && rest.get(0).equals("namespaces")) {
			namespace = rest.get(1);
			if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
				rest = rest.subList(2, rest.size());
			}
		}
		if (rest.isEmpty()) {
			return new ApiRequest(method.toLowerCase(Locale.ROOT), "", "", "", "", "", path, thread);
		}
		String resource = rest.get(0);
		String name = (rest.size() > 1) ? rest.get(1) : "";
		String subresource = (rest.size() > 2) ? rest.get(2) : "";
		boolean watch = watchPath || "true".equals(url.queryParameter("watch"))
				|| "1".equals(url.queryParameter("watch"));
		String verb = switch (method.toUpperCase(Locale.ROOT)) {
			case "GET", "HEAD" -> watch ? "watch" : (name.isEmpty() ? "list" : "get");
			case "POST" -> "create";
			case "PUT" -> "update";
			case "PATCH" -> "patch";
			case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
			default -> method.toLowerCase(Locale.ROOT);
		};
		return new ApiRequest(verb, group, resource, subresource, namespace, name, path, thread);
	}

	/**
	 * Return whether this is a request for a resource rather than a non-resource URL.
	 * @return whether it names a resource
	 */
	public boolean isResourceRequest() {
		return !this.resource.isEmpty();
	}

	@Override
	public String toString() {
		return this.verb + " " + (this.group.isEmpty() ? "core" : this.group) + " " + this.resource
				+ (this.subresource.isEmpty() ? "" : "/" + this.subresource)
				+ (this.namespace.isEmpty() ? " (cluster-wide)" : " in namespace " + this.namespace)
				+ (this.name.isEmpty() ? "" : " named " + this.name) + " [" + this.path + ", thread " + this.thread
				+ "]";
	}

}
