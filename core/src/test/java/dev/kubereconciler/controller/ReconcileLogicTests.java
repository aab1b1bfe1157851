package dev.kubereconciler.controller;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ReconcileLogic}: a model whose status a context could not read is
 * refused when the controller is defined, not at its first status write.
 */
class ReconcileLogicTests {

	@Test
	void aStatusFieldWithoutGetStatusIsRefusedNamingTheClassAndTheFix() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(FieldOnlyStatus.class)
				.reconcile((object, context) -> Result.done()))
			.withMessageContaining(FieldOnlyStatus.class.getName() + " has a status field but no public getStatus()")
			.withMessageContaining("add a public getStatus() to FieldOnlyStatus")
			.withMessageContaining("extend dev.kubereconciler.model.CustomResource");
		assertThatIllegalArgumentException().isThrownBy(() -> ControllerDefinition.builder(FieldOnlyStatus.class)
			.reconcileRequests((request, context) -> Result.done()));
	}

	@Test
	void aFinalizerNeedsAContextSoItIsRefusedThereToo() {
		ReconcileLogic<?> function = ControllerDefinition.builder(FieldOnlyStatus.class)
			.named("field-only")
			.reconcile((request) -> Result.done())
			.reconciler();
		assertThat(function.writesStatus()).isFalse();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(FieldOnlyStatus.class)
				.named("field-only")
				.finalizer("example.com/cleanup", (object, context) -> Result.done())
				.reconcile((request) -> Result.done()))
			.withMessageContaining("getStatus()");
	}

	@Test
	void modelsWithAStatusAccessorOrWithoutStatusAreAccepted() {
		assertThat(ControllerDefinition.builder(Backup.class)
			.reconcile((backup, context) -> Result.done())
			.reconciler()
			.writesStatus()).isTrue();
		assertThat(ControllerDefinition.builder(V1ConfigMap.class)
			.reconcile((configMap, context) -> Result.done())
			.reconciler()
			.writesStatus()).isFalse();
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

	@ResourceCoordinates(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<String, String> {

	}

}
