package dev.kubereconciler.test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.jspecify.annotations.Nullable;

/**
 * One event of the test API server's audit log: who sent a request, from where, what it
 * asked for and what the server answered, in the attributes the RBAC authorizer decides
 * on.
 *
 * @param stage {@code ResponseStarted} (a watch, once its headers are sent),
 * {@code ResponseComplete} or {@code Panic}
 * @param user the authenticated user, such as
 * {@code system:serviceaccount:<namespace>:<name>}
 * @param sourceIps the client's addresses, the connection's own last
 * @param verb get, list, watch, create, update, patch, delete or deletecollection; the
 * HTTP method in lower case for a non-resource request
 * @param group the API group, {@code ""} for the core group
 * @param resource the plural resource, empty for a non-resource request
 * @param subresource the subresource, such as {@code status}; empty for none
 * @param namespace the namespace, empty for a cluster-scoped or all-namespaces request
 * @param name the object name, empty for a collection
 * @param uri the request URI with its query
 * @param code the HTTP status of the answer, 0 if none was sent
 * @param received when the server received the request
 */
public record AuditEvent(String stage, String user, List<String> sourceIps, String verb, String group, String resource,
		String subresource, String namespace, String name, String uri, int code, Instant received) {

	/**
	 * Tell whether the server refused the request as not permitted (403).
	 * @return whether it was forbidden
	 */
	public boolean forbidden() {
		return this.code == 403;
	}

	/**
	 * Parse one line of a JSON audit log ({@code audit.k8s.io/v1} {@code Event}).
	 * @param line the line
	 * @return the event
	 */
	static AuditEvent parse(String line) {
		JsonObject event = JsonParser.parseString(line).getAsJsonObject();
		JsonObject object = event.has("objectRef") ? event.getAsJsonObject("objectRef") : new JsonObject();
		JsonObject status = event.has("responseStatus") ? event.getAsJsonObject("responseStatus") : new JsonObject();
		List<String> sources = new ArrayList<>();
		if (event.has("sourceIPs")) {
			event.getAsJsonArray("sourceIPs").forEach((ip) -> sources.add(ip.getAsString()));
		}
		return new AuditEvent(text(event, "stage"), text(event.getAsJsonObject("user"), "username"),
				List.copyOf(sources), text(event, "verb"), text(object, "apiGroup"), text(object, "resource"),
				text(object, "subresource"), text(object, "namespace"), text(object, "name"), text(event, "requestURI"),
				status.has("code") ? status.get("code").getAsInt() : 0,
				Instant.parse(text(event, "requestReceivedTimestamp")));
	}

	private static String text(@Nullable JsonObject object, String member) {
		JsonElement value = (object != null) ? object.get(member) : null;
		return (value != null && !value.isJsonNull()) ? value.getAsString() : "";
	}

}
