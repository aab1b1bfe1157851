package dev.kubereconciler.test.gc;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

/**
 * The collector's requests: objects are read as metadata only
 * ({@code PartialObjectMetadata}), as kube-controller-manager's metadata informers read
 * them, through the given client's authentication.
 */
final class MetadataClient {

	private static final String METADATA = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";

	private static final String METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

	private static final MediaType JSON = MediaType.get("application/json");

	private static final MediaType MERGE_PATCH = MediaType.get("application/merge-patch+json");

	private final ApiClient client;

	private final Gson gson;

	MetadataClient(ApiClient client) {
		this.client = client;
		this.gson = client.getJSON().getGson();
	}

	/** The object's metadata, or {@code null} when it does not exist. */
	@Nullable V1ObjectMeta get(ResourceType type, @Nullable String namespace, String name) throws ApiException {
		try (Response response = execute(request("GET", type.path(namespace, name), Map.of(), METADATA, null))) {
			if (response.code() == 404) {
				return null;
			}
			return metadata(JsonParser.parseString(body(response)).getAsJsonObject());
		}
	}

	/** Lists every object of the type, returning the list's resourceVersion. */
	String list(ResourceType type, List<V1ObjectMeta> into) throws ApiException {
		try (Response response = execute(request("GET", type.path(null, null), Map.of(), METADATA_LIST, null))) {
			JsonObject list = JsonParser.parseString(body(response)).getAsJsonObject();
			JsonElement items = list.get("items");
			// an empty list comes as "items": null
			if (items != null && items.isJsonArray()) {
				for (JsonElement item : items.getAsJsonArray()) {
					into.add(metadata(item.getAsJsonObject()));
				}
			}
			return list.getAsJsonObject("metadata").get("resourceVersion").getAsString();
		}
	}

	/**
	 * Starts a watch from the given resourceVersion; the caller reads it with
	 * {@link #read(Call, Consumer)} on a thread of its own and cancels the call to end
	 * it.
	 */
	Call watch(ResourceType type, String resourceVersion) throws ApiException {
		Map<String, String> query = Map.of("watch", "true", "resourceVersion", resourceVersion, "allowWatchBookmarks",
				"true", "timeoutSeconds", "300");
		return this.client.getHttpClient().newCall(request("GET", type.path(null, null), query, METADATA, null));
	}

	/** Reads the watch's events until the server ends it. */
	void read(Call watch, Consumer<WatchEvent> events) throws IOException, ApiException {
		try (Response response = watch.execute()) {
			ResponseBody body = check(response).body();
			BufferedReader reader = new BufferedReader(body.charStream());
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (!line.isBlank()) {
					JsonObject event = JsonParser.parseString(line).getAsJsonObject();
					JsonObject object = event.getAsJsonObject("object");
					String type = event.get("type").getAsString();
					int code = (object.has("code")) ? object.get("code").getAsInt() : 0;
					events.accept(new WatchEvent(type, type.equals("ERROR") ? null : metadata(object), code));
				}
			}
		}
	}

	/**
	 * Deletes the object with the given uid, if it is still that object; true if deleted.
	 */
	boolean delete(ResourceType type, @Nullable String namespace, String name, String uid, String propagationPolicy)
			throws ApiException {
		Map<String, Object> options = Map.of("apiVersion", "v1", "kind", "DeleteOptions", "propagationPolicy",
				propagationPolicy, "preconditions", Map.of("uid", uid));
		RequestBody body = RequestBody.create(this.gson.toJson(options), JSON);
		try (Response response = execute(request("DELETE", type.path(namespace, name), Map.of(), METADATA, body))) {
			// gone already, or a new object under the same name: not ours to delete
			return response.code() != 404 && response.code() != 409;
		}
	}

	/**
	 * Writes the given metadata fields by a JSON merge patch that names the
	 * resourceVersion read, so that a concurrent change fails it with a conflict.
	 * @return false on a conflict or when the object is gone
	 */
	boolean patchMetadata(ResourceType type, V1ObjectMeta read, Map<String, Object> fields) throws ApiException {
		Map<String, Object> metadata = new HashMap<>(fields);
		metadata.put("resourceVersion", read.getResourceVersion());
		metadata.put("uid", read.getUid());
		RequestBody body = RequestBody.create(this.gson.toJson(Map.of("metadata", metadata)), MERGE_PATCH);
		String path = type.path(read.getNamespace(), read.getName());
		try (Response response = execute(request("PATCH", path, Map.of(), METADATA, body))) {
			return response.code() != 404 && response.code() != 409;
		}
	}

	/** The API's resources in one group version, from discovery. */
	V1APIResourceList resources(String groupVersionPath) throws ApiException {
		try (Response response = execute(request("GET", groupVersionPath, Map.of(), "application/json", null))) {
			return this.gson.fromJson(body(response), V1APIResourceList.class);
		}
	}

	/** A discovery document as JSON. */
	JsonObject discovery(String path) throws ApiException {
		try (Response response = execute(request("GET", path, Map.of(), "application/json", null))) {
			return JsonParser.parseString(body(response)).getAsJsonObject();
		}
	}

	private V1ObjectMeta metadata(JsonObject object) {
		return this.gson.fromJson(object.get("metadata"), V1ObjectMeta.class);
	}

	// the client's own request building, so that its authentication (a bearer token, or
	// the client certificate of its HTTP client) applies
	private Request request(String method, String path, Map<String, String> query, String accept,
			@Nullable RequestBody body) throws ApiException {
		List<Pair> parameters = new ArrayList<>();
		query.forEach((name, value) -> parameters.add(new Pair(name, value)));
		Request request = this.client.buildRequest(null, path, "GET", parameters, List.of(), null,
				new HashMap<>(Map.of("Accept", accept)), new HashMap<>(), new HashMap<>(),
				new String[] { "BearerToken" }, null);
		return request.newBuilder().method(method, body).build();
	}

	private Response execute(Request request) throws ApiException {
		try {
			Response response = this.client.getHttpClient().newCall(request).execute();
			if (response.code() == 404 || response.code() == 409) {
				return response;
			}
			return check(response);
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
	}

	private static Response check(Response response) throws ApiException {
		if (!response.isSuccessful()) {
			String body;
			try {
				body = response.body().string();
			}
			catch (IOException ex) {
				body = "";
			}
			response.close();
			throw new ApiException(response.code(), response.request().method() + " " + response.request().url()
					+ " answered " + response.code() + ": " + body);
		}
		return response;
	}

	private static String body(Response response) throws ApiException {
		try {
			return response.body().string();
		}
		catch (IOException ex) {
			throw new ApiException(ex);
		}
	}

	/**
	 * One event of a watch: ADDED, MODIFIED, DELETED, BOOKMARK, or ERROR with its status
	 * code.
	 */
	record WatchEvent(String type, @Nullable V1ObjectMeta object, int code) {
	}

}
