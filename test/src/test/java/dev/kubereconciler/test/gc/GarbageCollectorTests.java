package dev.kubereconciler.test.gc;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.util.PatchUtils;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The garbage collector that {@code @KubernetesTest} runs on the shared server, against
 * the real API server: what kube-controller-manager's collector does with dependents when
 * their owners go in the background, in the foreground and with orphan propagation.
 */
@KubernetesTest
class GarbageCollectorTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	ApiClient client;

	TestNamespace namespace;

	@Test
	void dependentsGoAfterTheirOwnerIsDeletedInTheBackground() throws ApiException {
		V1ConfigMap owner = configMap("owner", null);
		V1Secret dependent = secret("dependent", reference(owner, false));
		V1ConfigMap grandchild = configMap("grandchild", reference(dependent, false));

		core().deleteNamespacedConfigMap("owner", ns()).execute();

		await().atMost(TIMEOUT).until(() -> secretOrNull("dependent") == null && configMapOrNull("grandchild") == null);
		assertThat(grandchild.getMetadata().getUid()).isNotNull();
	}

	@Test
	void aForegroundDeletedOwnerStaysUntilItsBlockingDependentsAreGone() throws ApiException {
		V1ConfigMap owner = configMap("fg-owner", null);
		V1Secret blocking = core().createNamespacedSecret(ns(),
				new V1Secret().metadata(new V1ObjectMeta().name("fg-blocking")
					.addFinalizersItem("example.com/hold")
					.addOwnerReferencesItem(reference(owner, true))))
			.execute();
		secret("fg-free", reference(owner, false));

		core().deleteNamespacedConfigMap("fg-owner", ns()).propagationPolicy("Foreground").execute();

		// the collector deletes the dependents; the held one stays, and so does the owner
		await().atMost(TIMEOUT).until(() -> secretOrNull("fg-free") == null);
		await().atMost(TIMEOUT).until(() -> secretOrNull("fg-blocking").getMetadata().getDeletionTimestamp() != null);
		V1ConfigMap waiting = configMapOrNull("fg-owner");
		assertThat(waiting).isNotNull();
		assertThat(waiting.getMetadata().getFinalizers()).containsExactly("foregroundDeletion");

		release(blocking);

		await().atMost(TIMEOUT).until(() -> secretOrNull("fg-blocking") == null && configMapOrNull("fg-owner") == null);
	}

	@Test
	void anOwnerDeletedWithOrphanPropagationLeavesItsDependentsWithoutTheReference() throws ApiException {
		V1ConfigMap owner = configMap("orphan-owner", null);
		V1ConfigMap other = configMap("orphan-other", null);
		secret("orphan-dependent", reference(owner, true), reference(other, false));

		core().deleteNamespacedConfigMap("orphan-owner", ns()).propagationPolicy("Orphan").execute();

		await().atMost(TIMEOUT).until(() -> configMapOrNull("orphan-owner") == null);
		V1Secret dependent = secretOrNull("orphan-dependent");
		assertThat(dependent).isNotNull();
		assertThat(dependent.getMetadata().getOwnerReferences()).extracting(V1OwnerReference::getName)
			.containsExactly("orphan-other");
	}

	@Test
	void aDependentOfTwoOwnersStaysUntilBothAreGone() throws ApiException {
		V1ConfigMap first = configMap("first", null);
		V1ConfigMap second = configMap("second", null);
		secret("shared", reference(first, false), reference(second, false));

		core().deleteNamespacedConfigMap("first", ns()).execute();

		// the collector lets go of the absent owner, and keeps the object for the other
		await().atMost(TIMEOUT).until(() -> secretOrNull("shared").getMetadata().getOwnerReferences().size() == 1);
		assertThat(secretOrNull("shared").getMetadata().getOwnerReferences()).extracting(V1OwnerReference::getName)
			.containsExactly("second");

		core().deleteNamespacedConfigMap("second", ns()).execute();

		await().atMost(TIMEOUT).until(() -> secretOrNull("shared") == null);
	}

	@Test
	void anOwnerReferenceIsCheckedByUidNotByName() throws ApiException {
		V1ConfigMap namesake = configMap("namesake", null);
		V1ConfigMap elsewhere = configMap("elsewhere", null);
		// the name of one object with the uid of another, and a uid nobody has
		V1OwnerReference mixed = reference(namesake, false).uid(elsewhere.getMetadata().getUid());
		V1OwnerReference unknown = reference(namesake, false).uid(UUID.randomUUID().toString());
		secret("mixed", mixed);
		secret("unknown", unknown);

		await().atMost(TIMEOUT).until(() -> secretOrNull("mixed") == null && secretOrNull("unknown") == null);
		assertThat(configMapOrNull("namesake")).isNotNull();
		assertThat(configMapOrNull("elsewhere")).isNotNull();
	}

	@Test
	void aNamespacedDependentOfAClusterScopedOwnerGoesWithIt() throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.client);
		String name = "gc-owner-" + ns();
		V1ClusterRole role = rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name(name)))
			.execute();
		secret("of-a-cluster-role",
				new V1OwnerReference().apiVersion("rbac.authorization.k8s.io/v1")
					.kind("ClusterRole")
					.name(name)
					.uid(role.getMetadata().getUid()));

		rbac.deleteClusterRole(name).execute();

		await().atMost(TIMEOUT).until(() -> secretOrNull("of-a-cluster-role") == null);
	}

	private void release(V1Secret held) throws ApiException {
		PatchUtils.patch(V1Secret.class,
				() -> core()
					.patchNamespacedSecret(held.getMetadata().getName(), ns(),
							new V1Patch("{\"metadata\":{\"finalizers\":null}}"))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

	private V1ConfigMap configMap(String name, @Nullable V1OwnerReference owner) throws ApiException {
		V1ObjectMeta metadata = new V1ObjectMeta().name(name);
		if (owner != null) {
			metadata.addOwnerReferencesItem(owner);
		}
		return core().createNamespacedConfigMap(ns(), new V1ConfigMap().metadata(metadata)).execute();
	}

	private V1Secret secret(String name, V1OwnerReference... owners) throws ApiException {
		return core()
			.createNamespacedSecret(ns(),
					new V1Secret().metadata(new V1ObjectMeta().name(name).ownerReferences(List.of(owners))))
			.execute();
	}

	private static V1OwnerReference reference(Object owner, boolean blockOwnerDeletion) {
		V1ObjectMeta metadata = (owner instanceof V1ConfigMap configMap) ? configMap.getMetadata()
				: ((V1Secret) owner).getMetadata();
		return new V1OwnerReference().apiVersion("v1")
			.kind((owner instanceof V1ConfigMap) ? "ConfigMap" : "Secret")
			.name(metadata.getName())
			.uid(metadata.getUid())
			.blockOwnerDeletion(blockOwnerDeletion);
	}

	private @Nullable V1ConfigMap configMapOrNull(String name) throws ApiException {
		try {
			return core().readNamespacedConfigMap(name, ns()).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private @Nullable V1Secret secretOrNull(String name) throws ApiException {
		try {
			return core().readNamespacedSecret(name, ns()).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private CoreV1Api core() {
		return new CoreV1Api(this.client);
	}

	private String ns() {
		return this.namespace.name();
	}

}
