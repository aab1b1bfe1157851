package dev.kubereconciler.internal.cache;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.util.generic.options.ListOptions;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.model.CustomResourceList;

/**
 * Lists a type by decoding each answer from the response stream straight into its list
 * model, as client-java's typed APIs do. client-java's {@code GenericKubernetesApi} first
 * parses the whole answer into a JSON tree, to tell a {@code Status} from a list, and
 * then turns the tree into the model: twice the decoding work, and a tree several times
 * the size of the JSON held at once. An answer that is not a success is an
 * {@link ApiException} with its status code either way. A model without a list class of
 * its own is read as a {@link CustomResourceList} of the model, where
 * {@code GenericKubernetesApi} would read it into a raw class and leave its items as
 * maps.
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

	KubernetesListObject list(@Nullable String namespace, ListOptions options) throws ApiException {
		List<Pair> query = new ArrayList<>();
		query.addAll(this.apiClient.parameterToPair("labelSelector", options.getLabelSelector()));
		query.addAll(this.apiClient.parameterToPair("fieldSelector", options.getFieldSelector()));
		query.addAll(this.apiClient.parameterToPair("resourceVersion", options.getResourceVersion()));
		query.addAll(this.apiClient.parameterToPair("timeoutSeconds", options.getTimeoutSeconds()));
		query.addAll(this.apiClient.parameterToPair("limit", options.getLimit()));
		query.addAll(this.apiClient.parameterToPair("continue", options.getContinue()));
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		Call call = this.apiClient.buildCall(null, path(namespace), "GET", query, new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
		return this.apiClient.<KubernetesListObject>execute(call, this.listType).getData();
	}

	String path(@Nullable String namespace) {
		String group = this.type.group();
		String prefix = (group == null || group.isEmpty()) ? "/api/" + this.type.version()
				: "/apis/" + group + "/" + this.type.version();
		String scope = (namespace == null) ? "" : "/namespaces/" + namespace;
		return prefix + scope + "/" + this.type.plural();
	}

}
