package dev.kubereconciler.internal.context;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.internal.cache.CacheViews;
import dev.kubereconciler.reconcile.AlreadyOwnedException;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@code ReconcileContext.setControllerReference}, with controller-runtime's
 * rules.
 */
class ControllerReferenceTests {

	private final DefaultReconcileContext<V1Secret> context = new DefaultReconcileContext<>(new Request("ns", "owner"),
			Trigger.EVENT, 0,
			new ReconcileSupport(new ApiClient(), new CacheViews(Map.of(), System::nanoTime, (type) -> false),
					new ModelCopier(), (controller) -> EventRecorder.noop(), System::nanoTime, ControllerListener.NONE),
			new KubernetesWriter(new ApiClient(), "test"));

	@Test
	void setsOneControllerReferenceAndIsIdempotent() {
		V1Secret owner = secret("owner", "uid-1");
		V1ConfigMap owned = configMap();
		this.context.setControllerReference(owner, owned);
		this.context.setControllerReference(owner, owned);
		assertThat(owned.getMetadata().getOwnerReferences()).singleElement().satisfies((reference) -> {
			assertThat(reference.getApiVersion()).isEqualTo("v1");
			assertThat(reference.getKind()).isEqualTo("Secret");
			assertThat(reference.getUid()).isEqualTo("uid-1");
			assertThat(reference.getController()).isTrue();
			assertThat(reference.getBlockOwnerDeletion()).isTrue();
		});
	}

	@Test
	void existingReferenceToTheSameOwnerIsReplacedInPlace() {
		// controller-runtime's upsertOwnerRef: the list keeps its order
		V1ConfigMap owned = configMap();
		V1OwnerReference first = new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("a").uid("uid-a");
		V1OwnerReference stale = new V1OwnerReference().apiVersion("v1").kind("Secret").name("owner").uid("uid-0");
		V1OwnerReference last = new V1OwnerReference().apiVersion("v1").kind("ConfigMap").name("z").uid("uid-z");
		owned.getMetadata().setOwnerReferences(List.of(first, stale, last));
		this.context.setControllerReference(secret("owner", "uid-1"), owned);
		assertThat(owned.getMetadata().getOwnerReferences()).extracting(V1OwnerReference::getUid)
			.containsExactly("uid-a", "uid-1", "uid-z");
		assertThat(owned.getMetadata().getOwnerReferences().get(1).getController()).isTrue();
	}

	@Test
	void anotherControllerOwnerIsAnAlreadyOwnedError() {
		V1ConfigMap owned = configMap();
		owned.getMetadata()
			.setOwnerReferences(List.of(new V1OwnerReference().apiVersion("apps/v1")
				.kind("Deployment")
				.name("web")
				.uid("uid-9")
				.controller(true)));
		assertThatExceptionOfType(AlreadyOwnedException.class)
			.isThrownBy(() -> this.context.setControllerReference(secret("owner", "uid-1"), owned))
			.withMessageContaining("Deployment/web")
			.satisfies((ex) -> assertThat(ex.getOwner()).isEqualTo("Deployment/web"));
		assertThat(owned.getMetadata().getOwnerReferences()).hasSize(1);
	}

	@Test
	void referencesDoNotCrossNamespaces() {
		V1Secret owner = secret("owner", "uid-1");
		owner.getMetadata().setNamespace("elsewhere");
		assertThatIllegalArgumentException().isThrownBy(() -> this.context.setControllerReference(owner, configMap()))
			.withMessageContaining("cannot cross namespaces");
		V1Namespace clusterScoped = new V1Namespace().metadata(new V1ObjectMeta().name("team"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.context.setControllerReference(secret("owner", "uid-1"), clusterScoped))
			.withMessageContaining("Cluster-scoped");
	}

	private static V1Secret secret(String name, String uid) {
		return new V1Secret().metadata(new V1ObjectMeta().name(name).namespace("ns").uid(uid));
	}

	private static V1ConfigMap configMap() {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name("owned").namespace("ns"));
	}

}
