package dev.kubereconciler.sample;

import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.UseMainMethod;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.kubereconciler.actuate.ControllerActivity;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sample.mirror.ConfigMapMirror;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * End-to-end tests of the configmap-mirror controller against the test API server.
 */
@KubernetesTest
@SpringBootTest(useMainMethod = UseMainMethod.ALWAYS)
@DirtiesContext
class ConfigMapMirrorTests {

	private static final String SOURCE = TestObjects.uniqueNamespace("mirror-source");

	private static final String TARGET = TestObjects.uniqueNamespace("mirror-target");

	private ApiClient client;

	@Autowired
	private ControllerRegistry controllers;

	@Autowired
	private ControllerActivity activity;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("sample.mirror.target-namespace", () -> TARGET);
		registry.add("kube-reconciler.crds.apply", () -> "true");
		// other test classes' controllers may still run: each one keeps to its namespaces
		registry.add("kube-reconciler.controllers.configmap-mirror.namespaces", () -> SOURCE);
		registry.add("kube-reconciler.controllers.widget.namespaces", () -> SOURCE);
		registry.add("kube-reconciler.manager.rate-limiter.qps", () -> "1000");
		registry.add("kube-reconciler.manager.rate-limiter.burst", () -> "1000");
	}

	@BeforeAll
	static void createNamespaces(ApiClient client) throws ApiException {
		TestObjects.createNamespace(client, SOURCE);
		TestObjects.createNamespace(client, TARGET);
	}

	@AfterAll
	static void deleteNamespaces(ApiClient client) throws ApiException {
		TestObjects.deleteNamespace(client, SOURCE);
		TestObjects.deleteNamespace(client, TARGET);
	}

	@Test
	void copiesALabelledConfigMapIntoTheTargetNamespaceWithPointersToItsSource() throws ApiException {
		V1ConfigMap source = core()
			.createNamespacedConfigMap(SOURCE,
					configMap("settings", Map.of("mirror", "true", "team", "payments"), Map.of("log-level", "info")))
			.execute();
		V1ConfigMap copy = awaitCopy("settings");
		assertThat(copy.getData()).containsExactlyEntriesOf(Map.of("log-level", "info"));
		assertThat(copy.getMetadata().getLabels()).containsEntry("team", "payments")
			.containsEntry(ConfigMapMirror.MANAGED_BY_LABEL, ConfigMapMirror.MANAGED_BY)
			.containsEntry(ConfigMapMirror.SOURCE_NAMESPACE_LABEL, SOURCE)
			.doesNotContainKey("mirror");
		assertThat(copy.getMetadata().getAnnotations())
			.containsEntry(ConfigMapMirror.SOURCE_ANNOTATION, SOURCE + "/settings")
			.containsEntry(ConfigMapMirror.SOURCE_UID_ANNOTATION, source.getMetadata().getUid());
		assertThat(copy.getMetadata().getOwnerReferences()).isNullOrEmpty();
	}

	@Test
	void updatesTheCopyWhenTheSourceChanges() throws ApiException {
		core()
			.createNamespacedConfigMap(SOURCE,
					configMap("changing", Map.of("mirror", "true"), Map.of("a", "1", "b", "2")))
			.execute();
		awaitCopy("changing");
		V1ConfigMap source = core().readNamespacedConfigMap("changing", SOURCE).execute();
		source.setData(Map.of("a", "10"));
		core().replaceNamespacedConfigMap("changing", SOURCE, source).execute();
		await().untilAsserted(
				() -> assertThat(readCopy("changing").getData()).containsExactlyEntriesOf(Map.of("a", "10")));
	}

	@Test
	void deletesTheCopyWhenTheSourceIsDeleted() throws ApiException {
		core().createNamespacedConfigMap(SOURCE, configMap("short-lived", Map.of("mirror", "true"), Map.of("k", "v")))
			.execute();
		awaitCopy("short-lived");
		core().deleteNamespacedConfigMap("short-lived", SOURCE).execute();
		await().untilAsserted(() -> assertCopyIsGone("short-lived"));
	}

	@Test
	void deletesTheCopyWhenTheSourceLosesTheLabel() throws ApiException {
		core().createNamespacedConfigMap(SOURCE, configMap("unlabelled", Map.of("mirror", "true"), Map.of("k", "v")))
			.execute();
		awaitCopy("unlabelled");
		V1ConfigMap source = core().readNamespacedConfigMap("unlabelled", SOURCE).execute();
		source.getMetadata().getLabels().remove("mirror");
		core().replaceNamespacedConfigMap("unlabelled", SOURCE, source).execute();
		await().untilAsserted(() -> assertCopyIsGone("unlabelled"));
	}

	@Test
	void ignoresConfigMapsWithoutTheLabel() throws ApiException {
		core().createNamespacedConfigMap(SOURCE, configMap("private", Map.of("mirror", "false"), Map.of("k", "v")))
			.execute();
		core().createNamespacedConfigMap(SOURCE, configMap("public", Map.of("mirror", "true"), Map.of("k", "v")))
			.execute();
		// events of one namespace arrive in order: once the later one is copied, the
		// earlier one has been seen and skipped
		awaitCopy("public");
		assertCopyIsGone("private");
	}

	@Test
	void reconcilingAnUpToDateCopyAgainChangesNothing() throws ApiException {
		core().createNamespacedConfigMap(SOURCE, configMap("stable", Map.of("mirror", "true"), Map.of("k", "v")))
			.execute();
		String resourceVersion = awaitCopy("stable").getMetadata().getResourceVersion();
		long successes = this.activity.reconciles("configmap-mirror").success();
		this.controllers.controller("configmap-mirror").enqueue(new Request(SOURCE, "stable"));
		await().until(() -> this.activity.reconciles("configmap-mirror").success() > successes);
		assertThat(readCopy("stable").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
	}

	@Test
	void leavesAConfigMapItDidNotCreateAloneAndDoesNotRetry() throws ApiException {
		String copyName = ConfigMapMirror.copyName(new Request(SOURCE, "taken"));
		core().createNamespacedConfigMap(TARGET, configMap(copyName, Map.of(), Map.of("owner", "someone-else")))
			.execute();
		long terminal = this.activity.reconciles("configmap-mirror").terminal();
		core().createNamespacedConfigMap(SOURCE, configMap("taken", Map.of("mirror", "true"), Map.of("k", "v")))
			.execute();
		await().until(() -> this.activity.reconciles("configmap-mirror").terminal() > terminal);
		assertThat(readCopy("taken").getData()).containsExactlyEntriesOf(Map.of("owner", "someone-else"));
	}

	private CoreV1Api core() {
		return new CoreV1Api(this.client);
	}

	private V1ConfigMap awaitCopy(String sourceName) {
		return await().ignoreExceptions().until(() -> readCopy(sourceName), (copy) -> copy != null);
	}

	private V1ConfigMap readCopy(String sourceName) throws ApiException {
		return core().readNamespacedConfigMap(ConfigMapMirror.copyName(new Request(SOURCE, sourceName)), TARGET)
			.execute();
	}

	private void assertCopyIsGone(String sourceName) {
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> readCopy(sourceName))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(404));
	}

	private static V1ConfigMap configMap(String name, Map<String, String> labels, Map<String, String> data) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(labels)).data(data);
	}

}
