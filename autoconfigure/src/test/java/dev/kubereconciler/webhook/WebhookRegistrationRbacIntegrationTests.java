package dev.kubereconciler.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbac;
import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdGenerator;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.test.rbac.ApiRequestRecorder;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.rbac.RbacAuthorizer;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.registration.WebhookRegistration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The RBAC rules an application derives with {@code kube-reconciler.webhooks.register}
 * let it register its webhooks and withdraw them, proven twice against the real API
 * server: by the server's own RBAC authorizer, with the application acting as its
 * ServiceAccount bound to exactly the derived roles, and by the test module's
 * {@link RbacAuthorizer} over every request the application sent.
 *
 * <p>
 * The application is an operator's usual shape: a controller that watches one namespace,
 * so that its rules are a Role there, and webhook configurations and a converted CRD,
 * which are cluster-scoped.
 */
@KubernetesTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookRegistrationRbacIntegrationTests {

	private static final String APPLICATION = "webhook-rbac-test";

	private static final String LABEL = "webhook-rbac-test";

	ApiClient client;

	TestNamespace namespace;

	private final ApiRequestRecorder recorder = new ApiRequestRecorder();

	private ConfigurableApplicationContext context;

	private List<KubernetesObject> rbac = List.of();

	@BeforeAll
	void installTheCrdAndLabelTheNamespace() throws ApiException {
		String yaml = new CrdGenerator()
			.yaml(List.of(RbacWebhooksApplication.DoohickeyV1beta1.class, RbacWebhooksApplication.DoohickeyV1.class));
		String json = new Gson().toJson(new Yaml().<Map<String, Object>>load(yaml));
		new CrdInstaller(this.client, "webhook-rbac-test").install(List.of(new CrdFiles.Crd(RbacWebhooksApplication.CRD,
				RbacWebhooksApplication.GROUP, "v1", "doohickeys", json, "CrdGenerator")));
		new DynamicKubernetesApi("", "v1", "namespaces", this.client)
			.patch(this.namespace.name(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"" + LABEL + "\":\"" + this.namespace.name() + "\"}}}"))
			.throwsApiException();
	}

	@AfterEach
	void stop() throws ApiException {
		if (this.context != null) {
			this.context.close();
		}
		// left behind only when the test failed
		new WebhookRegistration(this.client).unregister(
				new WebhookConfigurations(APPLICATION, WebhookClientConfig.url("https://127.0.0.1:1", new byte[0]),
						"Fail", Duration.ofSeconds(10), null, Map.of()));
		RbacAuthorizationV1Api api = new RbacAuthorizationV1Api(this.client);
		for (KubernetesObject object : this.rbac) {
			String name = object.getMetadata().getName();
			if (object instanceof V1ClusterRole) {
				api.deleteClusterRole(name).execute();
			}
			else if (object instanceof V1ClusterRoleBinding) {
				api.deleteClusterRoleBinding(name).execute();
			}
		}
	}

	@Test
	void theDerivedRulesLetTheApplicationRegisterItsWebhooksAndWithdrawThem() throws ApiException {
		// built, but started only once its ServiceAccount has the roles the application
		// derives
		this.context = new SpringApplicationBuilder(RbacWebhooksApplication.class).web(WebApplicationType.NONE)
			.initializers((context) -> context.getBeanFactory()
				.registerSingleton("applicationApiClient", this.recorder.attach(serviceAccountClient())))
			.properties("spring.application.name=" + APPLICATION, "kube-reconciler.auto-startup=false",
					"kube-reconciler.controllers.configmaps.namespaces=" + this.namespace.name(),
					"kube-reconciler.webhooks.port=0", "kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.namespace-selector." + LABEL + "=" + this.namespace.name())
			.run();
		RbacPolicy policy = this.context.getBean(KubeReconcilerRbac.class).policy();
		grant(policy);
		assertThatExceptionOfType(ApiException.class)
			.as("the application acts as its ServiceAccount, which may do only what it was granted")
			.isThrownBy(
					() -> new CoreV1Api(serviceAccountClient()).listNamespacedSecret(this.namespace.name()).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(403));
		this.context.start();
		AdmissionregistrationV1Api admission = new AdmissionregistrationV1Api(this.client);
		assertThat(admission.readValidatingWebhookConfiguration(APPLICATION).execute().getWebhooks()).hasSize(1);
		assertThat(admission.readMutatingWebhookConfiguration(APPLICATION).execute().getWebhooks()).hasSize(1);
		JsonObject conversion = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client)
			.get(RbacWebhooksApplication.CRD)
			.getObject()
			.getRaw()
			.getAsJsonObject("spec")
			.getAsJsonObject("conversion");
		assertThat(conversion.get("strategy").getAsString()).isEqualTo("Webhook");
		V1ConfigMap created = new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name("judged")).data(Map.of("mode", "fast")))
			.execute();
		assertThat(created.getData()).containsEntry("tier", "standard");
		this.context.close();
		assertThatExceptionOfType(ApiException.class).as("withdrawn when the application stopped")
			.isThrownBy(() -> admission.readValidatingWebhookConfiguration(APPLICATION).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> admission.readMutatingWebhookConfiguration(APPLICATION).execute())
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
		RbacAuthorizer.assertAllowed(policy, this.recorder.requests());
	}

	// the roles and bindings the manifests would install, to the ServiceAccount
	private void grant(RbacPolicy policy) throws ApiException {
		this.rbac = RbacManifests.objects(policy, APPLICATION, this.namespace.name());
		RbacAuthorizationV1Api api = new RbacAuthorizationV1Api(this.client);
		for (KubernetesObject object : this.rbac) {
			if (object instanceof V1ClusterRole role) {
				api.createClusterRole(role).execute();
			}
			else if (object instanceof V1ClusterRoleBinding binding) {
				api.createClusterRoleBinding(binding).execute();
			}
			else if (object instanceof V1Role role) {
				api.createNamespacedRole(role.getMetadata().getNamespace(), role).execute();
			}
			else if (object instanceof V1RoleBinding binding) {
				api.createNamespacedRoleBinding(binding.getMetadata().getNamespace(), binding).execute();
			}
		}
	}

	// the admin's client, acting as the application's ServiceAccount: the API server
	// authorizes each request as the ServiceAccount's
	private ApiClient serviceAccountClient() {
		ApiClient client = KubernetesTestServer.shared().apiClient();
		client.addDefaultHeader("Impersonate-User",
				"system:serviceaccount:" + this.namespace.name() + ":" + APPLICATION);
		return client;
	}

}
