package com.example.greeting;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;

/**
 * The greeting operator run with its {@code fleet} profile, as a user runs it with
 * {@code --spring.profiles.active=fleet}: a second real API server is its member cluster,
 * named by the kubeconfig file the profile's
 * {@code kube-reconciler.clusters.member.kubeconfig.file} points at, and a greeting is
 * published in the cluster it was created in, the local one and the member alike.
 */
@SpringBootTest
@ActiveProfiles("fleet")
@KubernetesTest
class GreetingFleetTests {

	private static KubernetesTestServer member;

	ApiClient client;

	TestNamespace namespace;

	@BeforeAll
	static void startMember() {
		member = KubernetesTestServer.start(KubernetesTestServer.shared().assets());
		// what a member cluster is given before the operator reconciles there: the CRD
		new CrdInstaller(member.apiClient(), "greeting-fleet-tests")
			.install(new CrdFiles(GreetingFleetTests.class.getClassLoader()).find(List.of(CrdFiles.DEFAULT_LOCATION),
					List.of()));
	}

	@DynamicPropertySource
	static void memberKubeconfig(DynamicPropertyRegistry registry) {
		registry.add("kube-reconciler.clusters.member.kubeconfig.file", () -> member.kubeconfig().toString());
	}

	@AfterAll
	static void stopMember() {
		if (member != null) {
			member.close();
		}
	}

	@Test
	void aGreetingIsPublishedInTheClusterItWasCreatedIn() throws Exception {
		String ns = this.namespace.name();
		ApiClient memberClient = member.apiClient();
		new CoreV1Api(memberClient).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
		greetings(memberClient).create(greeting(ns, "hello-member", "hello, member")).throwsApiException();
		greetings(this.client).create(greeting(ns, "hello-local", "hello, local")).throwsApiException();

		assertThat(memberClient, Greeting.class, ns, "hello-member").eventually().hasCondition("Ready", "True");
		assertThat(memberClient, V1ConfigMap.class, ns, "hello-member-greeting").eventually()
			.hasField("data.message", "hello, member");
		assertThat(this.client, V1ConfigMap.class, ns, "hello-local-greeting").eventually()
			.hasField("data.message", "hello, local");
		// each in its own cluster only
		assertThat(this.client, V1ConfigMap.class, ns, "hello-member-greeting").isGone();
		assertThat(memberClient, V1ConfigMap.class, ns, "hello-local-greeting").isGone();

		// the finalizer is removed in the member too
		greetings(memberClient).delete(ns, "hello-member").throwsApiException();
		assertThat(memberClient, Greeting.class, ns, "hello-member").eventually().isGone();
	}

	private static Greeting greeting(String ns, String name, String message) {
		Greeting greeting = new Greeting();
		greeting.setMetadata(new V1ObjectMeta().name(name).namespace(ns));
		greeting.setSpec(new Greeting.Spec());
		greeting.getSpec().setMessage(message);
		return greeting;
	}

	// a model on the base class has no list class of its own
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static GenericKubernetesApi<Greeting, CustomResourceList<Greeting>> greetings(ApiClient client) {
		return new GenericKubernetesApi(Greeting.class, CustomResourceList.class, "example.com", "v1", "greetings",
				client);
	}

}
