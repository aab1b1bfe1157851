package dev.kubereconciler.sample;

import java.util.Locale;
import java.util.UUID;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetSpec;

/**
 * Objects that the sample's tests create on the test API server.
 */
final class TestObjects {

	private TestObjects() {
	}

	/**
	 * Return a namespace name unique to this run, known before the Spring context starts
	 * so that properties can restrict the controllers to it.
	 */
	static String uniqueNamespace(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
	}

	static void createNamespace(ApiClient client, String name) throws ApiException {
		new CoreV1Api(client).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
	}

	static void deleteNamespace(ApiClient client, String name) throws ApiException {
		new CoreV1Api(client).deleteNamespace(name).execute();
	}

	static GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets(ApiClient client) {
		return CustomResourceList.api(Widget.class, client);
	}

	static Widget widget(String namespace, String name, String color, int size) {
		return Widget.of(namespace, name, new WidgetSpec(size, color));
	}

}
