package dev.kubereconciler.observation;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.micrometer.observation.transport.RequestReplySenderContext;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;

/**
 * What an {@link ApiRequestObservationConvention} reads of one request to the Kubernetes
 * API server: its method and path, and the verb, resource, namespace and name the path
 * names, read as the API server's own request info reads them. The carrier is the
 * request's builder, so that a tracing bridge's propagator can add its headers.
 */
public class ApiRequestObservationContext extends RequestReplySenderContext<Request.Builder, Response> {

	private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

	private final Request request;

	private final String verb;

	private final String resource;

	private final String subresource;

	private final String namespace;

	private final String name;

	/**
	 * Create the context of one request.
	 * @param request the request as the client sends it
	 */
	public ApiRequestObservationContext(Request request) {
		super((carrier, key, value) -> {
			if (carrier != null) {
				carrier.header(key, value);
			}
		});
		this.request = request;
		setCarrier(request.newBuilder());
		HttpUrl url = request.url();
		setRemoteServiceName("kube-apiserver");
		setRemoteServiceAddress(url.scheme() + "://" + url.host() + ":" + url.port());
		// /api/v1/... or /apis/<group>/<version>/..., then namespaces/<namespace>/...
		// unless that is a namespace's own subresource, as the API server reads it
		List<String> segments = url.pathSegments();
		String prefix = segments.get(0);
		int start = "api".equals(prefix) ? 2 : ("apis".equals(prefix) ? 3 : segments.size());
		List<String> rest = segments.subList(Math.min(start, segments.size()), segments.size());
		String namespace = "";
		if (rest.size() >= 3 && "namespaces".equals(rest.get(0)) && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
			namespace = rest.get(1);
			rest = rest.subList(2, rest.size());
		}
		this.namespace = namespace;
		this.resource = segment(rest, 0);
		this.name = segment(rest, 1);
		this.subresource = segment(rest, 2);
		this.verb = this.resource.isEmpty() ? request.method().toLowerCase(Locale.ROOT)
				: verb(request.method(), this.name, "true".equals(url.queryParameter("watch")));
	}

	private static String segment(List<String> segments, int index) {
		return (index < segments.size()) ? segments.get(index) : "";
	}

	private static String verb(String method, String name, boolean watch) {
		return switch (method) {
			case "GET" -> watch ? "watch" : (name.isEmpty() ? "list" : "get");
			case "POST" -> "create";
			case "PUT" -> "update";
			case "PATCH" -> "patch";
			case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
			default -> method.toLowerCase(Locale.ROOT);
		};
	}

	/**
	 * Return the request as the client built it, without the propagation headers.
	 * @return the request
	 */
	public Request getRequest() {
		return this.request;
	}

	/**
	 * Return the HTTP method.
	 * @return the method, such as {@code GET}
	 */
	public String getMethod() {
		return this.request.method();
	}

	/**
	 * Return the Kubernetes verb the method and path make: {@code get}, {@code list},
	 * {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete} or
	 * {@code deletecollection}; for a path that names no resource, the method in lower
	 * case, as the API server's request info has it.
	 * @return the verb
	 */
	public String getVerb() {
		return this.verb;
	}

	/**
	 * Return the resource the path names, such as {@code configmaps}.
	 * @return the resource, empty for a path that names none (such as {@code /version})
	 */
	public String getResource() {
		return this.resource;
	}

	/**
	 * Return the subresource the path names, such as {@code status}.
	 * @return the subresource, or an empty string
	 */
	public String getSubresource() {
		return this.subresource;
	}

	/**
	 * Return the namespace the path names.
	 * @return the namespace, empty for a cluster-scoped request
	 */
	public String getNamespace() {
		return this.namespace;
	}

	/**
	 * Return the object's name the path names ({@code getName()} is the observation's).
	 * @return the name, empty for a list, a watch or a create
	 */
	public String getObjectName() {
		return this.name;
	}

}
