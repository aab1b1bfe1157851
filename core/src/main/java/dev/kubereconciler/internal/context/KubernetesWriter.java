package dev.kubereconciler.internal.context;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.reconcile.KubernetesObjects;
import dev.kubereconciler.reconcile.TerminalReconcileException;

/**
 * Writes objects of any client-java model type through the API client's REST calls, with
 * a field manager on every write: create, replace, patches, server-side apply and the
 * {@code /status} subresource.
 *
 * <p>
 * Status is replaced with a PUT, because client-java's
 * {@code GenericKubernetesApi.updateStatus} sends a JSON patch that the API server
 * refuses while an object has no status yet.
 */
public final class KubernetesWriter {

	static final String MERGE_PATCH = "application/merge-patch+json";

	static final String APPLY_PATCH = "application/apply-patch+yaml";

	private static final String JSON_TYPE = "application/json";

	private final ApiClient apiClient;

	private final String fieldManager;

	String fieldManager() {
		return this.fieldManager;
	}

	public KubernetesWriter(ApiClient apiClient, String fieldManager) {
		this.apiClient = apiClient;
		this.fieldManager = fieldManager;
	}

	<R extends KubernetesObject> R create(R object) throws ApiException {
		V1ObjectMeta metadata = object.getMetadata();
		String path = collectionPath(ResourceType.of(object.getClass()), metadata.getNamespace());
		return call(object, "POST", path, JSON_TYPE, RequestBodies.json(object), false);
	}

	<R extends KubernetesObject> R update(R object) throws ApiException {
		return call(object, "PUT", itemPath(object, false), JSON_TYPE, RequestBodies.json(object), false);
	}

	<R extends KubernetesObject> R updateStatus(R object) throws ApiException {
		try {
			return call(object, "PUT", itemPath(object, true), JSON_TYPE, RequestBodies.json(object), false);
		}
		catch (ApiException ex) {
			throw statusWriteFailure(object, ex);
		}
	}

	<R extends KubernetesObject> R mergePatch(R object, String patch) throws ApiException {
		return call(object, "PATCH", itemPath(object, false), MERGE_PATCH, patch, false);
	}

	<R extends KubernetesObject> R apply(R object, boolean force) throws ApiException {
		return apply(object, RequestBodies.apply(object, false), force);
	}

	/**
	 * Server-side apply a body made by {@link #applyJson(KubernetesObject)}, which the
	 * caller already has.
	 */
	public <R extends KubernetesObject> R apply(R object, JsonObject body, boolean force) throws ApiException {
		return call(object, "PATCH", itemPath(object, false), APPLY_PATCH, body.toString(), force);
	}

	<R extends KubernetesObject> R applyStatus(R object, boolean force) throws ApiException {
		try {
			return call(object, "PATCH", itemPath(object, true), APPLY_PATCH,
					RequestBodies.apply(object, true).toString(), force);
		}
		catch (ApiException ex) {
			throw statusWriteFailure(object, ex);
		}
	}

	/**
	 * A 404 on {@code /status} of an object that exists means that its CRD serves no
	 * status subresource, which no retry can change: it ends the reconcile terminally,
	 * saying so, instead of a bare "not found" retried for ever. A 404 of an object that
	 * is gone stays what it is.
	 */
	private ApiException statusWriteFailure(KubernetesObject object, ApiException ex) {
		if (ex.getCode() != 404 || !exists(object)) {
			return ex;
		}
		ResourceType type = ResourceType.of(object.getClass());
		throw new TerminalReconcileException(
				KubernetesObjects.describe(object) + " exists, but writing its status returned "
						+ "404 Not Found: the API server serves no /status subresource for " + type.plural() + ". "
						+ ServedResources.fix(type) + " The key is not retried until the object changes or resyncs.",
				ex);
	}

	/**
	 * Read an object from the server as the server's own JSON, which keeps
	 * {@code metadata.managedFields}: client-java's models drop them when it decodes,
	 * unless the JVM was started with {@code kubernetes.client.includeManagedFields}.
	 * @param object an object that names the one to read
	 * @return the server's object, or {@code null} if there is none
	 * @throws ApiException if the server refuses the read
	 */
	public @Nullable JsonObject readJson(KubernetesObject object) throws ApiException {
		Call call = this.apiClient.buildCall(null, itemPath(object, false), "GET", new ArrayList<>(), new ArrayList<>(),
				null, headers(JSON_TYPE), new HashMap<>(), new HashMap<>(), authNames(), null);
		try (Response response = call.execute()) {
			ResponseBody body = response.body();
			String text = (body != null) ? body.string() : "";
			if (response.code() == 404) {
				return null;
			}
			if (!response.isSuccessful()) {
				throw new ApiException("GET " + call.request().url().encodedPath() + " returned " + response.code(),
						response.code(), response.headers().toMultimap(), text);
			}
			return JsonParser.parseString(text).getAsJsonObject();
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
	}

	/**
	 * Delete an object only if it is still the one of this uid, so that a delete never
	 * reaches an object created again under the same name.
	 * @param object the object to delete
	 * @param uid its uid
	 * @return {@code true} if this call deleted it
	 * @throws ApiException if the server refuses it, other than for a gone object or
	 * another uid
	 */
	public boolean deleteExactly(KubernetesObject object, String uid) throws ApiException {
		JsonObject preconditions = new JsonObject();
		preconditions.addProperty("uid", uid);
		JsonObject options = new JsonObject();
		options.addProperty("apiVersion", "v1");
		options.addProperty("kind", "DeleteOptions");
		options.addProperty("propagationPolicy", "Background");
		options.add("preconditions", preconditions);
		try {
			Call call = this.apiClient.buildCall(null, itemPath(object, false), "DELETE", new ArrayList<>(),
					new ArrayList<>(), options, headers(JSON_TYPE), new HashMap<>(), new HashMap<>(), authNames(),
					null);
			this.apiClient.execute(call, null);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404 || ex.getCode() == 409) {
				return false;
			}
			throw WriteFailures.of("delete", object, ex);
		}
	}

	/**
	 * Apply a JSON merge patch to an object's {@code /status} subresource.
	 * @param object the object to patch, which names it
	 * @param patch the patch, as JSON
	 * @return the object the server stored
	 * @throws ApiException if the server refuses it
	 */
	public <R extends KubernetesObject> R mergePatchStatus(R object, String patch) throws ApiException {
		try {
			return call(object, "PATCH", itemPath(object, true), MERGE_PATCH, patch, false);
		}
		catch (ApiException ex) {
			throw statusWriteFailure(object, ex);
		}
	}

	/**
	 * Return the body an apply of this object sends, with its type set and without the
	 * empty values the model put there by default.
	 * @param object the object
	 * @return the JSON
	 */
	public JsonObject applyJson(KubernetesObject object) {
		return RequestBodies.apply(object, false);
	}

	private boolean exists(KubernetesObject object) {
		try {
			Call call = this.apiClient.buildCall(null, itemPath(object, false), "GET", new ArrayList<>(),
					new ArrayList<>(), null, headers(JSON_TYPE), new HashMap<>(), new HashMap<>(), authNames(), null);
			this.apiClient.execute(call, null);
			return true;
		}
		catch (ApiException ex) {
			return false;
		}
	}

	boolean delete(KubernetesObject object) throws ApiException {
		try {
			Call call = this.apiClient.buildCall(null, itemPath(object, false), "DELETE", new ArrayList<>(),
					new ArrayList<>(), null, headers(JSON_TYPE), new HashMap<>(), new HashMap<>(), authNames(), null);
			this.apiClient.execute(call, null);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw WriteFailures.of("delete", object, ex);
		}
	}

	@SuppressWarnings("unchecked")
	private <R extends KubernetesObject> R call(R object, String method, String path, String contentType, String body,
			boolean force) throws ApiException {
		// the client serializes the body itself for JSON content types: hand it a tree,
		// not text
		Object payload = contentType.endsWith("json") ? JsonParser.parseString(body) : body;
		List<Pair> query = new ArrayList<>();
		query.add(new Pair("fieldManager", this.fieldManager));
		if (force) {
			query.add(new Pair("force", "true"));
		}
		Call call = this.apiClient.buildCall(null, path, method, query, new ArrayList<>(), payload,
				headers(contentType), new HashMap<>(), new HashMap<>(), authNames(), null);
		try {
			return (R) this.apiClient.execute(call, object.getClass()).getData();
		}
		catch (ApiException ex) {
			throw WriteFailures.of(WriteFailures.write(method, contentType, path), object, ex);
		}
	}

	private static Map<String, String> headers(String contentType) {
		Map<String, String> headers = new HashMap<>();
		headers.put("Content-Type", contentType);
		headers.put("Accept", JSON_TYPE);
		return headers;
	}

	private static String[] authNames() {
		return new String[] { "BearerToken" };
	}

	static String collectionPath(ResourceType type, String namespace) {
		String group = (type.group() == null || type.group().isEmpty()) ? "/api/" + type.version()
				: "/apis/" + type.group() + "/" + type.version();
		String scope = (namespace == null || namespace.isEmpty()) ? "" : "/namespaces/" + namespace;
		return group + scope + "/" + type.plural();
	}

	private static String itemPath(KubernetesObject object, boolean status) {
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null || metadata.getName() == null) {
			throw new IllegalArgumentException("The object to write needs metadata.name");
		}
		String path = collectionPath(ResourceType.of(object.getClass()), metadata.getNamespace()) + "/"
				+ metadata.getName();
		return status ? path + "/status" : path;
	}

}
