package dev.kubereconciler.test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

/**
 * Writes the {@code service} references of webhook configurations and CRD conversion
 * webhooks as the URL upstream's default service resolver makes of them, for an API
 * server that resolves no service reference itself.
 */
final class ServiceReferences {

	private static final int ATTEMPTS = 5;

	private final ApiClient client;

	ServiceReferences(ApiClient client) {
		this.client = client;
	}

	List<String> rewriteAll() {
		List<String> rewritten = new ArrayList<>();
		for (Target target : Target.values()) {
			DynamicKubernetesApi api = target.api(this.client);
			KubernetesApiResponse<DynamicKubernetesListObject> list = api.list();
			if (!list.isSuccess()) {
				throw new IllegalStateException(
						"Could not list " + target.resource + ": " + list.getStatus().getMessage());
			}
			for (DynamicKubernetesObject object : list.getObject().getItems()) {
				if (!target.clientConfigs.apply(object.getRaw()).isEmpty() && rewrite(target, api, object)) {
					rewritten.add(target.resource + "/" + object.getMetadata().getName());
				}
			}
		}
		return rewritten;
	}

	private boolean rewrite(Target target, DynamicKubernetesApi api, DynamicKubernetesObject listed) {
		DynamicKubernetesObject object = listed;
		for (int attempt = 1;; attempt++) {
			List<JsonObject> clientConfigs = target.clientConfigs.apply(object.getRaw());
			if (clientConfigs.isEmpty()) {
				return false;
			}
			clientConfigs.forEach(ServiceReferences::asUrl);
			KubernetesApiResponse<DynamicKubernetesObject> updated = api.update(object);
			if (updated.isSuccess()) {
				return true;
			}
			String name = object.getMetadata().getName();
			if (updated.getHttpStatusCode() != 409 || attempt == ATTEMPTS) {
				throw new IllegalStateException("Could not write the service references of " + target.resource + " "
						+ name + " as URLs: " + updated.getStatus().getMessage());
			}
			KubernetesApiResponse<DynamicKubernetesObject> current = api.get(name);
			if (!current.isSuccess()) {
				return false;
			}
			object = current.getObject();
		}
	}

	// as k8s.io/apiserver's DefaultServiceResolver and webhook client: the host is also
	// the TLS server name the API server checks the serving certificate against
	private static void asUrl(JsonObject clientConfig) {
		JsonObject service = clientConfig.getAsJsonObject("service");
		int port = service.has("port") ? service.get("port").getAsInt() : 443;
		String path = service.has("path") ? service.get("path").getAsString() : "";
		clientConfig.remove("service");
		clientConfig.addProperty("url", "https://" + service.get("name").getAsString() + "."
				+ service.get("namespace").getAsString() + ".svc:" + port + path);
	}

	// the client configs that name a service
	private static List<JsonObject> webhookServiceConfigs(JsonObject configuration) {
		List<JsonObject> clientConfigs = new ArrayList<>();
		if (configuration.get("webhooks") instanceof JsonArray webhooks) {
			for (JsonElement webhook : webhooks) {
				if (webhook.getAsJsonObject().get("clientConfig") instanceof JsonObject clientConfig
						&& clientConfig.get("service") instanceof JsonObject) {
					clientConfigs.add(clientConfig);
				}
			}
		}
		return clientConfigs;
	}

	private static List<JsonObject> conversionServiceConfig(JsonObject crd) {
		return (crd.get("spec") instanceof JsonObject spec && spec.get("conversion") instanceof JsonObject conversion
				&& conversion.get("webhook") instanceof JsonObject webhook
				&& webhook.get("clientConfig") instanceof JsonObject clientConfig
				&& clientConfig.get("service") instanceof JsonObject) ? List.of(clientConfig) : List.of();
	}

	private enum Target {

		VALIDATING("admissionregistration.k8s.io", "validatingwebhookconfigurations",
				ServiceReferences::webhookServiceConfigs),

		MUTATING("admissionregistration.k8s.io", "mutatingwebhookconfigurations",
				ServiceReferences::webhookServiceConfigs),

		CRD("apiextensions.k8s.io", "customresourcedefinitions", ServiceReferences::conversionServiceConfig);

		private final String group;

		private final String resource;

		private final Function<JsonObject, List<JsonObject>> clientConfigs;

		Target(String group, String resource, Function<JsonObject, List<JsonObject>> clientConfigs) {
			this.group = group;
			this.resource = resource;
			this.clientConfigs = clientConfigs;
		}

		DynamicKubernetesApi api(ApiClient client) {
			return new DynamicKubernetesApi(this.group, "v1", this.resource, client);
		}

	}

}
