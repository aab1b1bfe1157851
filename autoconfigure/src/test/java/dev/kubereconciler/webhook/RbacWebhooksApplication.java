package dev.kubereconciler.webhook;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.StorageVersion;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.conversion.VersionConverter;

/**
 * An operator's usual shape: a controller of ConfigMaps, a validator and a defaulter of
 * them, and a custom resource with two versions that the application converts; its
 * {@code ApiClient} bean is the test's to give.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
		KubeReconcilerWebhookAutoConfiguration.class, KubeReconcilerRbacAutoConfiguration.class })
class RbacWebhooksApplication {

	static final String GROUP = "rbac.webhook.test.kubereconciler.dev";

	static final String CRD = "doohickeys." + GROUP;

	@Bean
	ControllerDefinition configMaps() {
		return ControllerDefinition.builder(V1ConfigMap.class)
			.named("configmaps")
			.reconcile((Request request) -> Result.done());
	}

	@Bean
	AdmissionValidator<V1ConfigMap> configMapValidator() {
		return new ConfigMapWebhooksApplication.ConfigMapValidator();
	}

	@Bean
	AdmissionDefaulter<V1ConfigMap> configMapDefaulter() {
		return (configMap, request) -> configMap.putDataItem("tier", "standard");
	}

	@Bean
	VersionConverter<DoohickeyV1, DoohickeyV1beta1> doohickeyConverter() {
		return new VersionConverter<>() {

			@Override
			public DoohickeyV1 toHub(DoohickeyV1beta1 spoke) {
				DoohickeyV1 hub = new DoohickeyV1();
				hub.setMetadata(spoke.getMetadata());
				hub.setSpec(new DoohickeyV1.Spec((spoke.getSpec() != null) ? spoke.getSpec().size() : null));
				return hub;
			}

			@Override
			public DoohickeyV1beta1 fromHub(DoohickeyV1 hub) {
				DoohickeyV1beta1 spoke = new DoohickeyV1beta1();
				spoke.setMetadata(hub.getMetadata());
				spoke.setSpec(new DoohickeyV1beta1.Spec((hub.getSpec() != null) ? hub.getSpec().size() : null));
				return spoke;
			}

		};
	}

	/**
	 * The stored version, and the hub.
	 */
	@StorageVersion
	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Doohickey", plural = "doohickeys")
	public static class DoohickeyV1 extends CustomResource<DoohickeyV1.Spec, Void> {

		/**
		 * The desired state.
		 *
		 * @param size how big
		 */
		public record Spec(Integer size) {

		}

	}

	/**
	 * The earlier version.
	 */
	@ResourceCoordinates(group = GROUP, version = "v1beta1", kind = "Doohickey", plural = "doohickeys")
	public static class DoohickeyV1beta1 extends CustomResource<DoohickeyV1beta1.Spec, Void> {

		/**
		 * The desired state.
		 *
		 * @param size how big
		 */
		public record Spec(Integer size) {

		}

	}

}
