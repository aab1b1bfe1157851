package dev.kubereconciler.sample;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetSpec;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.LocalApiServerConfiguration;

/**
 * Demo objects for {@link TestSampleApplication}, on the local API server of
 * {@link LocalApiServerConfiguration}: applies the Widget CRD, seeds namespaces,
 * ConfigMaps and widgets, then prints the URLs to open.
 */
@TestConfiguration(proxyBeanMethods = false)
public class DemoObjectsConfiguration {

	/** The namespace that holds the demo objects. */
	public static final String DEMO_NAMESPACE = "demo";

	private static final Logger logger = LoggerFactory.getLogger(DemoObjectsConfiguration.class);

	private static final List<String> COLORS = List.of("red", "green", "blue", "yellow");

	private static final int WIDGETS = 30;

	// runs while the context starts, so the objects exist before the controllers
	// list them; the generated Widget CRD is applied here too (applying it twice is
	// harmless), as no order between this bean and LocalApiServerConfiguration's holds
	@Bean
	InitializingBean demoObjects(ApiClient apiClient, SampleProperties properties) {
		return () -> {
			new CrdInstaller(apiClient, "kube-reconciler-sample")
				.install(new CrdFiles(DemoObjectsConfiguration.class.getClassLoader()).find(List.of(), List.of()));
			CoreV1Api core = new CoreV1Api(apiClient);
			for (String namespace : List.of(DEMO_NAMESPACE, "team-a", properties.getMirror().getTargetNamespace())) {
				create(() -> core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
					.execute());
			}
			create(() -> core
				.createNamespacedConfigMap(DEMO_NAMESPACE,
						configMap("app-settings", true, Map.of("log-level", "info", "region", "eu-west-1")))
				.execute());
			create(() -> core
				.createNamespacedConfigMap(DEMO_NAMESPACE,
						configMap("feature-flags", true, Map.of("new-checkout", "true")))
				.execute());
			create(() -> core
				.createNamespacedConfigMap(DEMO_NAMESPACE, configMap("local-only", false, Map.of("not", "mirrored")))
				.execute());
			create(() -> core
				.createNamespacedConfigMap("team-a", configMap("app-settings", true, Map.of("log-level", "debug")))
				.execute());
			GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets = CustomResourceList.api(Widget.class,
					apiClient);
			for (int i = 1; i <= WIDGETS; i++) {
				String name = String.format("widget-%02d", i);
				createWidget(widgets, name, COLORS.get(i % COLORS.size()), 1 + (i * 7) % 100);
			}
			// fails every call: watch its retries back off in
			// /actuator/controllers/widget
			createWidget(widgets, "cursed", "cursed", 13);
			// fails the first sample.external-api.flaky-failures calls, then
			// becomes Ready
			createWidget(widgets, "flaky", "flaky", 5);
		};
	}

	@Bean
	ApplicationListener<ApplicationReadyEvent> demoUrls(KubernetesTestServer server) {
		return (event) -> {
			String port = event.getApplicationContext().getEnvironment().getProperty("local.server.port");
			String base = "http://localhost:" + port;
			logger.info("""

					Local API server ready (kube-apiserver {}), demo objects in namespace '{}'.
					Open:
					  {}/actuator/controllers
					  {}/actuator/controllers/widget
					  {}/actuator/health
					  {}/actuator/prometheus
					  {}/sample/external-api
					kubectl:
					  export KUBECONFIG={}
					  kubectl get widgets -A; kubectl get configmaps -n mirrored
					""", server.url(), DEMO_NAMESPACE, base, base, base, base, base, server.kubeconfig());
		};
	}

	private static V1ConfigMap configMap(String name, boolean mirror, Map<String, String> data) {
		V1ObjectMeta metadata = new V1ObjectMeta().name(name).putLabelsItem("app", "demo");
		if (mirror) {
			metadata.putLabelsItem("mirror", "true");
		}
		return new V1ConfigMap().metadata(metadata).data(data);
	}

	private static void createWidget(GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets, String name,
			String color, int size) throws ApiException {
		Widget widget = Widget.of(DEMO_NAMESPACE, name, new WidgetSpec(size, color));
		KubernetesApiResponse<Widget> response = widgets.create(widget);
		if (!response.isSuccess() && response.getHttpStatusCode() != 409) {
			response.throwsApiException();
		}
	}

	private static void create(ApiCall call) throws ApiException {
		try {
			call.run();
		}
		catch (ApiException ex) {
			// already there: the shared server outlives a restarted context
			if (ex.getCode() != 409) {
				throw ex;
			}
		}
	}

	@FunctionalInterface
	private interface ApiCall {

		void run() throws ApiException;

	}

}
