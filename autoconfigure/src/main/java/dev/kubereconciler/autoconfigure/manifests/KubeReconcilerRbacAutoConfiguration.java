package dev.kubereconciler.autoconfigure.manifests;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.ManagedControllers;

/**
 * Auto-configuration for the RBAC policy derived from the controllers, which the
 * {@code controllers} endpoint and the manifest generator render.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class)
@ConditionalOnBean(ManagedControllers.class)
@EnableConfigurationProperties({ RbacProperties.class, DeploymentProperties.class })
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

}
