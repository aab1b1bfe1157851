package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
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
 * Checks through discovery, before a manager starts, that the API server serves every
 * type its controllers watch, own or map, and the {@code /status} subresource of each
 * type whose status a controller writes. Without the first, the informers list in vain
 * until the cache sync timeout; without the second, every status write fails with a 404
 * that names the object as not found, though it exists. Each failure says how to fix the
 * CustomResourceDefinition.
 */
public final class ServedResources {

	private static final Logger logger = LoggerFactory.getLogger(ServedResources.class);

	private static final String CRD_FOLDER = "target/kubernetes/crds/";

	private ServedResources() {
	}

	/**
	 * Check every controller's types. A discovery call that fails other than with 404
	 * (the API server unreachable, say) is logged and skipped: the informers then report
	 * it.
	 * @param apiClient the client
	 * @param definitions the controllers
	 * @throws IllegalStateException naming the controller, the type and the fix
	 */
	public static void verify(ApiClient apiClient, List<ControllerDefinition> definitions) {
		Map<String, Discovery> discovered = new HashMap<>();
		for (ControllerDefinition definition : definitions) {
			for (Class<? extends KubernetesObject> watched : definition.cachedTypes()) {
				ResourceType type = ResourceType.of(watched);
				Discovery discovery = discovered.computeIfAbsent(groupVersionPath(type),
						(path) -> discover(apiClient, path));
				if (discovery.answered() && !discovery.resources().contains(type.plural())) {
					throw new IllegalStateException("Controller '" + definition.name() + "' watches "
							+ type.displayName() + ", which the API server does not serve. " + install(watched, type));
				}
			}
			if (definition.reconciler().writesStatus()) {
				ResourceType type = ResourceType.of(definition.watches());
				Discovery discovery = discovered.get(groupVersionPath(type));
				if (discovery != null && discovery.answered()
						&& !discovery.resources().contains(type.plural() + "/status")) {
					throw new IllegalStateException("Controller '" + definition.name() + "' writes the status of "
							+ type.displayName() + " (its reconciler takes a context, which offers updateStatus and "
							+ "applyStatus), but the API server serves no /status subresource for " + type.plural()
							+ ", so every status write would fail with 404 Not Found. " + fix(type));
				}
			}
		}
	}

	private static String install(Class<?> model, ResourceType type) {
		if (model.getName().startsWith("io.kubernetes.client.openapi.models.")) {
			return "It is built into Kubernetes, so this API server is of a version or configuration without "
					+ type.apiVersion() + "/" + type.plural() + ".";
		}
		return "Apply its CustomResourceDefinition " + crdName(type) + ", which serves " + type.plural()
				+ " in version " + type.version() + " (for a generated one, " + CRD_FOLDER + crdName(type)
				+ ".yaml), before the manager starts; with Spring Boot, kube-reconciler.crds.apply=true applies the "
				+ "CRDs of META-INF/kubernetes/crds on the class path at startup.";
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

	public static String groupVersionPath(ResourceType type) {
		return (type.group() == null || type.group().isEmpty()) ? "/api/" + type.version()
				: "/apis/" + type.group() + "/" + type.version();
	}

	private static Discovery discover(ApiClient apiClient, String path) {
		try {
			V1APIResourceList list = resources(apiClient, path);
			return new Discovery(true, list.getResources().stream().map(V1APIResource::getName).toList());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				// the group and version are not served at all
				return new Discovery(true, List.of());
			}
			logger.warn("Could not read {} to check that the watched types are served: {} {}", path, ex.getCode(),
					ex.getMessage());
			return new Discovery(false, List.of());
		}
	}

	/**
	 * Read the discovery document of a group and version.
	 * @param apiClient the client
	 * @param path the path, from {@link #groupVersionPath(ResourceType)}
	 * @return the resources it serves
	 * @throws ApiException if the server refuses the read
	 */
	public static V1APIResourceList resources(ApiClient apiClient, String path) throws ApiException {
		Map<String, String> headers = new HashMap<>();
		headers.put("Accept", "application/json");
		Call call = apiClient.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), new String[] { "BearerToken" }, null);
		return apiClient.<V1APIResourceList>execute(call, V1APIResourceList.class).getData();
	}

	private record Discovery(boolean answered, List<String> resources) {
	}

}
