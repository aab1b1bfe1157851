package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.TypeAdapter;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ListMeta;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.model.CustomResourceList;

/**
 * Lists a type by decoding each answer from the response stream, one item at a time, into
 * its list model, as client-java's typed APIs decode from the stream. client-java's
 * {@code GenericKubernetesApi} first parses the whole answer into a JSON tree, to tell a
 * {@code Status} from a list, and then turns the tree into the model: twice the decoding
 * work, and a tree several times the size of the JSON held at once. An answer that is not
 * a success is an {@link ApiException} with its status code either way. A model without a
 * list class of its own is read as a {@link CustomResourceList} of the model, where
 * {@code GenericKubernetesApi} would read it into a raw class and leave its items as
 * maps.
 *
 * <p>
 * Each item is transformed as soon as it is decoded, so that a list holds what the cache
 * will hold and one decoded item beside it. The list's metadata, which the API server
 * writes before the items, is handed to the caller before the items are read, so that the
 * request for the next page can be on its way while this one is decoded.
 */
final class ListCall {

	private final ApiClient apiClient;

	private final ResourceType type;

	private final Type listType;

	ListCall(ApiClient apiClient, ResourceType type) {
		this.apiClient = apiClient;
		this.type = type;
		this.listType = (type.listType() == CustomResourceList.class)
				? TypeToken.getParameterized(CustomResourceList.class, type.apiType()).getType() : type.listType();
	}

	/**
	 * Send a request on the client's dispatcher, to be read later on the caller's thread.
	 */
	PendingList send(@Nullable String namespace, ListRequest request) throws ApiException {
		Call call = call(namespace, request);
		CompletableFuture<Response> response = new CompletableFuture<>();
		call.enqueue(new Callback() {

			@Override
			public void onFailure(Call failed, IOException ex) {
				response.completeExceptionally(ex);
			}

			@Override
			public void onResponse(Call answered, Response answer) {
				response.complete(answer);
			}

		});
		return new PendingList(call, response);
	}

	/**
	 * Make a request on the caller's thread, when the answer is read: nothing overlaps
	 * it.
	 */
	PendingList prepare(@Nullable String namespace, ListRequest request) throws ApiException {
		return new PendingList(call(namespace, request), null);
	}

	private Call call(@Nullable String namespace, ListRequest request) throws ApiException {
		List<Pair> query = new ArrayList<>();
		query.addAll(this.apiClient.parameterToPair("labelSelector", request.labelSelector()));
		query.addAll(this.apiClient.parameterToPair("fieldSelector", request.fieldSelector()));
		query.addAll(this.apiClient.parameterToPair("resourceVersion", request.resourceVersion()));
		query.addAll(this.apiClient.parameterToPair("resourceVersionMatch", request.resourceVersionMatch()));
		query.addAll(this.apiClient.parameterToPair("timeoutSeconds", request.timeoutSeconds()));
		query.addAll(this.apiClient.parameterToPair("limit", request.limit()));
		query.addAll(this.apiClient.parameterToPair("continue", request.continueToken()));
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		return this.apiClient.buildCall(null, path(namespace), "GET", query, new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
	}

	String path(@Nullable String namespace) {
		String group = this.type.group();
		String prefix = (group == null || group.isEmpty()) ? "/api/" + this.type.version()
				: "/apis/" + group + "/" + this.type.version();
		String scope = (namespace == null) ? "" : "/namespaces/" + namespace;
		return prefix + scope + "/" + this.type.plural();
	}

	/**
	 * One list request, sent or about to be, whose answer is read once.
	 */
	final class PendingList {

		private final Call call;

		private final @Nullable CompletableFuture<Response> sent;

		PendingList(Call call, @Nullable CompletableFuture<Response> sent) {
			this.call = call;
			this.sent = sent;
		}

		/**
		 * Read the answer.
		 * @param transform what to do to each item, or {@code null}
		 * @param onMetadata told the list's metadata before the items are read
		 * @return the list
		 * @throws ApiException if the request fails or the server refuses it
		 */
		KubernetesListObject read(@Nullable TransformFunc transform, Consumer<@Nullable V1ListMeta> onMetadata)
				throws ApiException {
			KubernetesListObject list = read(transform, onMetadata, Integer.MAX_VALUE);
			if (list == null) {
				throw new IllegalStateException("a list of more than Integer.MAX_VALUE objects");
			}
			return list;
		}

		/**
		 * Read the answer, unless it holds more than {@code most} objects: then give it
		 * up at the first object past them, unread, so that no more than {@code most} are
		 * held.
		 * @param transform what to do to each item, or {@code null}
		 * @param onMetadata told the list's metadata before the items are read
		 * @param most the most objects to read
		 * @return the list, or {@code null} if it holds more than {@code most} objects
		 * @throws ApiException if the request fails or the server refuses it
		 */
		@Nullable KubernetesListObject read(@Nullable TransformFunc transform, Consumer<@Nullable V1ListMeta> onMetadata,
				int most) throws ApiException {
			try (Response response = response()) {
				ResponseBody body = response.body();
				if (!response.isSuccessful() || body == null) {
					throw new ApiException(response.message(), response.code(), response.headers().toMultimap(),
							(body != null) ? body.string() : null);
				}
				return decode(new JsonReader(body.charStream()), transform, onMetadata, most);
			}
			catch (IOException ex) {
				throw new ApiException(ex);
			}
		}

		/** Give the request up, and the answer if one came. */
		void cancel() {
			this.call.cancel();
			if (this.sent != null) {
				this.sent.thenAccept(Response::close);
			}
		}

		private Response response() throws IOException {
			if (this.sent == null) {
				return this.call.execute();
			}
			try {
				return this.sent.get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				cancel();
				throw new InterruptedIOException("interrupted while waiting for a list");
			}
			catch (ExecutionException ex) {
				throw (ex.getCause() instanceof IOException io) ? io : new IOException(ex.getCause());
			}
		}

	}

	private @Nullable KubernetesListObject decode(JsonReader reader, @Nullable TransformFunc transform,
			Consumer<@Nullable V1ListMeta> onMetadata, int most) throws IOException {
		Gson gson = this.apiClient.getJSON().getGson();
		TypeAdapter<?> itemAdapter = gson.getAdapter(this.type.apiType());
		JsonObject shell = new JsonObject();
		List<KubernetesObject> items = new ArrayList<>();
		V1ListMeta metadata = null;
		boolean told = false;
		reader.beginObject();
		while (reader.hasNext()) {
			String name = reader.nextName();
			switch (name) {
				case "metadata" -> {
					metadata = gson.fromJson(reader, V1ListMeta.class);
					onMetadata.accept(metadata);
					told = true;
				}
				case "items" -> {
					if (!told) {
						// a server that writes the items first: nothing overlaps them
						onMetadata.accept(null);
						told = true;
					}
					if (!readItems(reader, itemAdapter, transform, items, most)) {
						return null;
					}
				}
				case "apiVersion", "kind" -> shell.addProperty(name, reader.nextString());
				default -> reader.skipValue();
			}
		}
		reader.endObject();
		if (!told) {
			onMetadata.accept(metadata);
		}
		if (metadata != null) {
			shell.add("metadata", gson.toJsonTree(metadata));
		}
		shell.add("items", new JsonArray());
		KubernetesListObject list = gson.fromJson(shell, this.listType);
		// the models deserialize their items into a list of their own
		@SuppressWarnings("unchecked")
		List<KubernetesObject> listed = (List<KubernetesObject>) list.getItems();
		listed.addAll(items);
		return list;
	}

	private static boolean readItems(JsonReader reader, TypeAdapter<?> adapter, @Nullable TransformFunc transform,
			List<KubernetesObject> items, int most) throws IOException {
		if (reader.peek() == JsonToken.NULL) {
			reader.nextNull();
			return true;
		}
		reader.beginArray();
		while (reader.hasNext()) {
			if (items.size() == most) {
				return false;
			}
			KubernetesObject item = (KubernetesObject) adapter.read(reader);
			items.add((transform != null && item != null) ? transform.transform(item) : item);
		}
		reader.endArray();
		return true;
	}

}
