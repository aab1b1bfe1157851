package dev.kubereconciler.controller;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.reconcile.CustomResource;
import dev.kubereconciler.reconcile.KubernetesResource;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ReconcileSpec}: a model whose status a context could not read is
 * refused when the controller is defined, not at its first status write.
 */
class ReconcileSpecTests {

	@Test
	void aStatusFieldWithoutGetStatusIsRefusedNamingTheClassAndTheFix() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(FieldOnlyStatus.class)
				.reconcile((object, context) -> Result.done()))
			.withMessageContaining(FieldOnlyStatus.class.getName() + " has a status field but no public getStatus()")
			.withMessageContaining("add a public getStatus() to FieldOnlyStatus")
			.withMessageContaining("extend dev.kubereconciler.reconcile.CustomResource");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ReconcileSpec.ofRequests(FieldOnlyStatus.class, (request, context) -> Result.done()));
	}

	@Test
	void aFinalizerNeedsAContextSoItIsRefusedThereToo() {
		ReconcileSpec<FieldOnlyStatus> function = ReconcileSpec.ofFunction(FieldOnlyStatus.class,
				(request) -> Result.done());
		assertThat(function.writesStatus()).isFalse();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> function.withFinalizer("example.com/cleanup", (object, context) -> Result.done()))
			.withMessageContaining("getStatus()");
	}

	@Test
	void modelsWithAStatusAccessorOrWithoutStatusAreAccepted() {
		assertThat(ReconcileSpec.of(Backup.class, (backup, context) -> Result.done()).writesStatus()).isTrue();
		assertThat(ReconcileSpec.of(V1ConfigMap.class, (configMap, context) -> Result.done()).writesStatus()).isFalse();
	}

	static class FieldOnlyStatus implements KubernetesObject {

		private V1ObjectMeta metadata = new V1ObjectMeta();

		private Object status;

		@Override
		public V1ObjectMeta getMetadata() {
			return this.metadata;
		}

		@Override
		public String getApiVersion() {
			return "example.com/v1";
		}

		@Override
		public String getKind() {
			return "FieldOnlyStatus";
		}

	}

	@KubernetesResource(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<String, String> {

	}

}
