package dev.kubereconciler.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.PatchUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link CacheTransforms} do for an application that starts client-java with
 * {@code -Dkubernetes.client.includeManagedFields=true}, so that its models carry the
 * {@code managedFields} the server filled in. Runs in the test module's JVM that has the
 * property (see its pom): client-java reads it once per JVM.
 */
@KubernetesTest
@Tag("managed-fields-kept")
class CacheTransformsWithManagedFieldsKeptTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final String NAME = "managed";

	private final List<ControllerManager> managers = new ArrayList<>();

	ApiClient client;

	TestNamespace namespace;

	@BeforeAll
	static void runsWithManagedFieldsKept() {
		assertThat(Boolean.getBoolean("kubernetes.client.includeManagedFields"))
			.as("runs in the surefire execution 'with-managed-fields-kept' of the test module")
			.isTrue();
	}

	@BeforeEach
	void applyConfigMap() throws ApiException {
		CoreV1Api core = new CoreV1Api(this.client);
		String body = """
				{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s"},
				"data":{"color":"red"}}""".formatted(NAME, this.namespace.name());
		PatchUtils.patch(V1ConfigMap.class,
				() -> core.patchNamespacedConfigMap(NAME, this.namespace.name(), new V1Patch(body))
					.fieldManager("cache-tests")
					.force(true)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_APPLY_YAML, this.client);
		// the premise: the models of this JVM show who set which field
		assertThat(core.readNamespacedConfigMap(NAME, this.namespace.name()).execute().getMetadata().getManagedFields())
			.isNotEmpty();
	}

	@AfterEach
	void stopManagers() {
		this.managers.forEach(ControllerManager::stop);
	}

	@Test
	void managedFieldsAreDroppedByDefault() {
		V1ConfigMap cached = startAndRead(CacheTransforms.defaults());
		assertThat(cached.getMetadata().getManagedFields()).isNull();
		assertThat(cached.getData()).containsEntry("color", "red");
	}

	@Test
	void managedFieldsAreKeptWhenStrippingIsOff() {
		assertThat(startAndRead(CacheTransforms.defaults().stripManagedFields(false)).getMetadata().getManagedFields())
			.isNotEmpty();
	}

	@Test
	void typeTransformRunsAfterTheBuiltInOnes() {
		V1ConfigMap cached = startAndRead(CacheTransforms.defaults().transform(V1ConfigMap.class, (configMap) -> {
			configMap.getMetadata()
				.putAnnotationsItem("managed-fields-seen",
						String.valueOf(configMap.getMetadata().getManagedFields() != null));
			return configMap;
		}));
		assertThat(cached.getMetadata().getAnnotations()).containsEntry("managed-fields-seen", "false");
	}

	private V1ConfigMap startAndRead(CacheTransforms transforms) {
		ControllerManager manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("cache")
				.namespaces(this.namespace.name())
				.reconcile((request) -> Result.done()))
			.cacheTransforms(transforms)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build();
		this.managers.add(manager);
		manager.start();
		return await().atMost(TIMEOUT)
			.until(() -> manager.lister(V1ConfigMap.class).namespace(this.namespace.name()).get(NAME),
					(configMap) -> configMap != null);
	}

}
