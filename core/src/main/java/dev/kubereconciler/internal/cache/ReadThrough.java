package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerListener;

/**
 * The reads of the types that {@link CacheOptions} reads through: {@code get} and
 * {@code list} go to the API server, as controller-runtime's client reads the types of
 * {@code DisableFor}, and each request is told to the {@link ControllerListener}, which
 * the metrics count.
 */
public final class ReadThrough {

	/** The verb of a read of one object. */
	public static final String GET = "get";

	/** The verb of a read of a collection. */
	public static final String LIST = "list";

	private final ApiClient apiClient;

	private final CacheOptions options;

	private final ControllerListener listener;

	private final Map<Class<?>, ListCall> calls = new ConcurrentHashMap<>();

	/**
	 * Create the reads.
	 * @param apiClient the client the reads go through
	 * @param options which types are read through
	 * @param listener hears of every request
	 */
	public ReadThrough(ApiClient apiClient, CacheOptions options, ControllerListener listener) {
		this.apiClient = apiClient;
		this.options = options;
		this.listener = listener;
	}

	/**
	 * Return whether a type is read through.
	 * @param type the model type
	 * @return whether its reads go to the API server
	 */
	public boolean covers(Class<? extends KubernetesObject> type) {
		return this.options.isReadThrough(type);
	}

	/**
	 * Read one object from the API server.
	 * @param <T> the model type
	 * @param controller the controller that reads, for the listener
	 * @param type the model type
	 * @param namespace the namespace, empty for a cluster-scoped object
	 * @param name the name
	 * @return the object, or {@code null} if the server has none
	 * @throws ApiException if the server refuses the read
	 */
	public <T extends KubernetesObject> @Nullable T get(String controller, Class<T> type, String namespace, String name)
			throws ApiException {
		ListCall call = call(type);
		this.listener.cacheReadThrough(controller, ResourceType.of(type).displayName(), GET);
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		String path = call.path((namespace == null || namespace.isEmpty()) ? null : namespace) + "/" + name;
		Call request = this.apiClient.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
		try {
			return this.apiClient.<T>execute(request, type).getData();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	/**
	 * List objects from the API server, in one request.
	 * @param <T> the model type
	 * @param controller the controller that reads, for the listener
	 * @param type the model type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the label selector the server applies, empty for none
	 * @return the objects
	 * @throws ApiException if the server refuses the read
	 */
	@SuppressWarnings("unchecked")
	public <T extends KubernetesObject> List<T> list(String controller, Class<T> type, @Nullable String namespace,
			String labelSelector) throws ApiException {
		ListCall call = call(type);
		this.listener.cacheReadThrough(controller, ResourceType.of(type).displayName(), LIST);
		ListRequest request = new ListRequest((labelSelector.isBlank()) ? null : labelSelector, null, null, null, null,
				null, null);
		KubernetesListObject list = call.prepare(namespace, request).read(null, (metadata) -> {
		});
		List<T> items = (list.getItems() != null) ? (List<T>) list.getItems() : List.of();
		return new ArrayList<>(items);
	}

	private ListCall call(Class<? extends KubernetesObject> type) {
		return this.calls.computeIfAbsent(type, (key) -> new ListCall(this.apiClient, ResourceType.of(type)));
	}

}
