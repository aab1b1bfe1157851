package dev.kubereconciler.autoconfigure.manifests;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.webhook.conversion.ConvertedResource;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Auto-configuration for the RBAC policy derived from the controllers, which the
 * {@code controllers} endpoint and the manifest generator render.
 */
@AutoConfiguration(after = { KubeReconcilerAutoConfiguration.class, KubeReconcilerWebhookAutoConfiguration.class })
@ConditionalOnBean(ManagedControllers.class)
@EnableConfigurationProperties(RbacProperties.class)
public final class KubeReconcilerRbacAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KubeReconcilerRbac kubeReconcilerRbac(ManagedControllers controllers, KubeReconcilerProperties properties,
			RbacProperties rbacProperties, DeploymentProperties deployment, ObjectProvider<RbacCustomizer> customizers,
			Environment environment) {
		return new KubeReconcilerRbac(controllers, properties, rbacProperties, customizers.orderedStream().toList(),
				name(deployment, environment), deployment.getNamespace());
	}

	static String name(DeploymentProperties deployment, Environment environment) {
		return (deployment.getName() != null) ? deployment.getName()
				: environment.getProperty("spring.application.name", "kube-reconciler");
	}

	// what the webhook registration writes: the configurations by server-side apply
	// (patch, and create the first time), deleted when the application stops, and the
	// conversion of the converted CRDs by merge patch, by name. All are cluster-scoped,
	// which no Role can grant, so they go into a ClusterRole even when the controllers
	// have Roles.
	@Bean
	@ConditionalOnBooleanProperty("kube-reconciler.webhooks.register")
	@ConditionalOnBean(Webhooks.class)
	RbacCustomizer kubeReconcilerWebhookRegistrationRbac(Webhooks webhooks) {
		return (rules) -> {
			if (webhooks.isEmpty()) {
				return;
			}
			rules.clusterRule(PolicyRule.of("admissionregistration.k8s.io", "validatingwebhookconfigurations", "create",
					"patch", "delete"));
			rules.clusterRule(PolicyRule.of("admissionregistration.k8s.io", "mutatingwebhookconfigurations", "create",
					"patch", "delete"));
			if (!webhooks.convertedResources().isEmpty()) {
				rules.clusterRule(new PolicyRule(List.of("apiextensions.k8s.io"), List.of("customresourcedefinitions"),
						List.of("patch"),
						webhooks.convertedResources().stream().map(ConvertedResource::crdName).toList()));
			}
		};
	}

	// one class per @EnableConfigurationProperties: Spring Boot collects the
	// classes of one annotation into a HashSet, so two of them were registered,
	// and written by Spring AOT, in an order that changed from one build to the
	// next (docs/releasing.md)
	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(DeploymentProperties.class)
	static class DeploymentPropertiesConfiguration {

	}

}
