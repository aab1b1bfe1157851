package com.example.greeting;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.test.assertions.ReconcileRecorder;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;

/**
 * The greeting operator against a real API server: the Greeting CRD, generated from its
 * class by the build, is installed from {@code META-INF/kubernetes/crds} before the
 * application starts, and the application's client points at the test server, where a
 * garbage collector runs as in a cluster. After the class, every request the application
 * made is checked against the RBAC rules derived for it.
 */
@SpringBootTest
@KubernetesTest
class GreetingOperatorTests {

	@Autowired
	ReconcileRecorder reconciles;

	ApiClient client;

	TestNamespace namespace;

	@Test
	void aGreetingIsPublishedReadyAndSaysFarewellWhenDeletedAndItsConfigMapGoesWithIt() throws Exception {
		GenericKubernetesApi<Greeting, CustomResourceList<Greeting>> greetings = greetings();
		Greeting greeting = new Greeting();
		greeting.setMetadata(new V1ObjectMeta().name("hello").namespace(this.namespace.name()));
		greeting.setSpec(new Greeting.Spec());
		greeting.getSpec().setMessage("hello, world");
		greetings.create(greeting).throwsApiException();

		assertThat(this.client, Greeting.class, this.namespace.name(), "hello").eventually()
			.hasCondition("Ready", "True")
			.hasField("status.observedGeneration", 1);
		assertThat(this.client, V1ConfigMap.class, this.namespace.name(), "hello-greeting").eventually()
			.hasField("data.message", "hello, world")
			.hasField("metadata.ownerReferences[0].name", "hello");
		// the status write comes back as an event: one more reconcile, then no hot loop
		assertThat(this.reconciles, "greeting", new Request(this.namespace.name(), "hello"))
			.isQuietFor(Duration.ofSeconds(1));

		greetings.delete(this.namespace.name(), "hello").throwsApiException();
		assertThat(this.client, Greeting.class, this.namespace.name(), "hello").eventually().isGone();
		assertThat(this.client, Greeting.class, this.namespace.name(), "hello").hasEvent("greeting", "Farewell");
		// no cleanup code deletes it: the owner reference does, through the garbage
		// collector that @KubernetesTest runs, as a cluster's controller manager would
		assertThat(this.client, V1ConfigMap.class, this.namespace.name(), "hello-greeting").eventually().isGone();
	}

	// a model on the base class has no list class of its own
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private GenericKubernetesApi<Greeting, CustomResourceList<Greeting>> greetings() {
		return new GenericKubernetesApi(Greeting.class, CustomResourceList.class, "example.com", "v1", "greetings",
				this.client);
	}

}
