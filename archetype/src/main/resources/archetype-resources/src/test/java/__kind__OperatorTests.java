package ${package};

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.assertions.ReconcileRecorder;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator against a real API server: the ${kind} CRD, generated from its class by
 * the build, is installed before the application starts, the application's client points
 * at the test server, and the API server calls the application's validating webhook. After
 * the class, every request the application made is checked against the RBAC rules derived
 * for it, the rules the generated manifests deploy.
 */
@SpringBootTest(properties = "kube-reconciler.webhooks.register=true")
@KubernetesTest
class ${kind}OperatorTests {

	@Autowired
	ReconcileRecorder reconciles;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void isReadyWithItsConfigMapAndCleanedUpWhenDeleted() throws Exception {
		resources().create(resource("first", Map.of("greeting", "hello"))).throwsApiException();

		assertThat(this.client, ${kind}.class, this.namespace.name(), "first").eventually()
			.hasCondition("Ready", "True")
			.hasField("status.observedGeneration", 1);
		assertThat(this.client, V1ConfigMap.class, this.namespace.name(), "first-settings").eventually()
			.hasField("data.greeting", "hello")
			.hasField("metadata.ownerReferences[0].name", "first");
		// the status write comes back as an event: one more reconcile, then no hot loop
		assertThat(this.reconciles, ${kind}Reconciler.NAME, new Request(this.namespace.name(), "first"))
			.isQuietFor(Duration.ofSeconds(1));

		resources().delete(this.namespace.name(), "first").throwsApiException();
		assertThat(this.client, ${kind}.class, this.namespace.name(), "first").eventually().isGone();
		assertThat(this.client, ${kind}.class, this.namespace.name(), "first").hasEvent(${kind}Reconciler.NAME,
				"CleanedUp");
	}

	@Test
	void theValidatingWebhookRefusesAKeyNoConfigMapCanHold() {
		KubernetesApiResponse<${kind}> refused = resources()
			.create(resource("refused", Map.of("not a key", "value")));

		assertThat(refused.getHttpStatusCode()).isEqualTo(403);
		assertThat(refused.getStatus().getMessage()).contains("spec.settings key 'not a key' cannot be a ConfigMap key");
	}

	private ${kind} resource(String name, Map<String, String> settings) {
		${kind} resource = new ${kind}();
		resource.setMetadata(new V1ObjectMeta().name(name).namespace(this.namespace.name()));
		resource.setSpec(new ${kind}.Spec());
		resource.getSpec().setSettings(settings);
		return resource;
	}

	// a model on the base class has no list class of its own
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private GenericKubernetesApi<${kind}, CustomResourceList<${kind}>> resources() {
		return new GenericKubernetesApi(${kind}.class, CustomResourceList.class, ${kind}.GROUP, ${kind}.VERSION,
				${kind}.PLURAL, this.client);
	}

}
