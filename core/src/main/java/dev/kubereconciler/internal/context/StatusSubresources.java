package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import okhttp3.Call;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;

/**
 * Checks through discovery that the API server serves the {@code /status} subresource of
 * each type whose status a controller writes, and says how to add it to the
 * CustomResourceDefinition when it does not. Without the subresource every status write
 * fails with a 404 that names the object as not found, though it exists.
 */
public final class StatusSubresources {

	private static final Logger logger = LoggerFactory.getLogger(StatusSubresources.class);

	private StatusSubresources() {
	}

	/**
	 * Check every controller that
	 * {@linkplain dev.kubereconciler.controller.ReconcileSpec#writesStatus() writes
	 * status}. A type that discovery does not list is left to the informers, whose list
	 * fails with its own error; a discovery call that fails is logged and skipped, since
	 * the writes would still tell.
	 * @param apiClient the client
	 * @param definitions the controllers
	 * @throws IllegalStateException naming the controller, the CRD and the field to add
	 */
	public static void verify(ApiClient apiClient, List<ControllerDefinition> definitions) {
		Map<String, Optional<List<String>>> discovered = new HashMap<>();
		for (ControllerDefinition definition : definitions) {
			if (!definition.reconciler().writesStatus()) {
				continue;
			}
			ResourceType type = ResourceType.of(definition.watches());
			Optional<List<String>> resources = discovered.computeIfAbsent(groupVersionPath(type),
					(path) -> discover(apiClient, path));
			if (resources.isPresent() && resources.get().contains(type.plural())
					&& !resources.get().contains(type.plural() + "/status")) {
				throw new IllegalStateException("Controller '" + definition.name() + "' writes the status of "
						+ type.displayName() + " (its reconciler takes a context, which offers updateStatus and "
						+ "applyStatus), but the API server serves no /status subresource for " + type.plural()
						+ ", so every status write would fail with 404 Not Found. " + fix(type));
			}
		}
	}

	/**
	 * Say how to serve the {@code /status} subresource of a type.
	 * @param type the type
	 * @return the fix, naming the CRD and its field
	 */
	public static String fix(ResourceType type) {
		return "Add the status subresource to version " + type.version() + " of the CustomResourceDefinition "
				+ crdName(type) + " (spec.versions[].subresources.status: {}) and apply it again.";
	}

	private static String crdName(ResourceType type) {
		return (type.group() == null || type.group().isEmpty()) ? type.plural() : type.plural() + "." + type.group();
	}

	private static String groupVersionPath(ResourceType type) {
		return (type.group() == null || type.group().isEmpty()) ? "/api/" + type.version()
				: "/apis/" + type.group() + "/" + type.version();
	}

	private static Optional<List<String>> discover(ApiClient apiClient, String path) {
		try {
			Map<String, String> headers = new HashMap<>();
			headers.put("Accept", "application/json");
			Call call = apiClient.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null, headers,
					new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
			V1APIResourceList list = apiClient.<V1APIResourceList>execute(call, V1APIResourceList.class).getData();
			return Optional.of(list.getResources().stream().map(V1APIResource::getName).toList());
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				logger.warn("Could not read {} to check the /status subresources: {} {}", path, ex.getCode(),
						ex.getMessage());
			}
			return Optional.empty();
		}
	}

}
