package dev.kubereconciler.webhook;

import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.test.KubernetesTestConfiguration;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;

/**
 * An application with a validator and a defaulter of ConfigMaps, and no controller.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
		KubeReconcilerWebhookAutoConfiguration.class })
@Import(KubernetesTestConfiguration.class)
class ConfigMapWebhooksApplication {

	@Bean
	AdmissionValidator<V1ConfigMap> configMapValidator() {
		return new ConfigMapValidator();
	}

	@Bean
	AdmissionDefaulter<V1ConfigMap> configMapDefaulter() {
		return (configMap, request) -> {
			if (configMap.getData() == null || !configMap.getData().containsKey("tier")) {
				configMap.putDataItem("tier", "standard");
			}
		};
	}

	static final class ConfigMapValidator implements AdmissionValidator<V1ConfigMap> {

		@Override
		public AdmissionResult validateCreate(V1ConfigMap configMap, AdmissionRequest request) {
			Map<String, String> data = (configMap.getData() != null) ? configMap.getData() : Map.of();
			if ("explode".equals(data.get("mode"))) {
				throw new IllegalStateException("the validator blew up on purpose");
			}
			if ("slow".equals(data.get("mode"))) {
				return AdmissionResult.denied("mode 'slow' is retired: use 'fast'");
			}
			if (data.containsKey("legacy")) {
				return AdmissionResult.allowed().withWarnings("'legacy' is ignored and will be refused in v2");
			}
			return AdmissionResult.allowed();
		}

		@Override
		public AdmissionResult validateUpdate(V1ConfigMap oldObject, V1ConfigMap newObject, AdmissionRequest request) {
			String before = owner(oldObject);
			String after = owner(newObject);
			if (!Objects.equals(before, after)) {
				return AdmissionResult.denied("owner cannot change from " + before + " to " + after);
			}
			return validateCreate(newObject, request);
		}

		private static String owner(V1ConfigMap configMap) {
			return (configMap.getData() != null) ? configMap.getData().get("owner") : null;
		}

	}

}
