package dev.kubereconciler.internal.cache;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.util.generic.options.ListOptions;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.reconcile.CustomResourceList;

/**
 * Lists a model that has no list class of its own as a {@link CustomResourceList} of the
 * model: client-java's {@code GenericKubernetesApi} reads a list into a raw class, which
 * would leave the items of a generic list as maps.
 */
final class GenericListCall {

	private final ApiClient apiClient;

	private final ResourceType type;

	private final Type listType;

	GenericListCall(ApiClient apiClient, ResourceType type) {
		this.apiClient = apiClient;
		this.type = type;
		this.listType = TypeToken.getParameterized(CustomResourceList.class, type.apiType()).getType();
	}

	CustomResourceList<?> list(@Nullable String namespace, ListOptions options) throws ApiException {
		List<Pair> query = new ArrayList<>();
		query.addAll(this.apiClient.parameterToPair("labelSelector", options.getLabelSelector()));
		query.addAll(this.apiClient.parameterToPair("resourceVersion", options.getResourceVersion()));
		query.addAll(this.apiClient.parameterToPair("timeoutSeconds", options.getTimeoutSeconds()));
		query.addAll(this.apiClient.parameterToPair("limit", options.getLimit()));
		query.addAll(this.apiClient.parameterToPair("continue", options.getContinue()));
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		Call call = this.apiClient.buildCall(null, path(namespace), "GET", query, new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
		return this.apiClient.<CustomResourceList<?>>execute(call, this.listType).getData();
	}

	private String path(@Nullable String namespace) {
		String group = this.type.group();
		String prefix = (group == null || group.isEmpty()) ? "/api/" + this.type.version()
				: "/apis/" + group + "/" + this.type.version();
		String scope = (namespace == null) ? "" : "/namespaces/" + namespace;
		return prefix + scope + "/" + this.type.plural();
	}

}
