package dev.kubereconciler.autoconfigure.actuate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.actuate.ControllerActivity;
import dev.kubereconciler.actuate.ControllersEndpoint;
import dev.kubereconciler.actuate.ControllersEndpointWebExtension;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbac;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;

/**
 * Auto-configuration for the {@code controllers} Actuator endpoint; the activity it
 * reports is only recorded while the endpoint is available.
 */
@AutoConfiguration(after = { KubeReconcilerAutoConfiguration.class, KubeReconcilerRbacAutoConfiguration.class })
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(ManagedControllers.class)
@ConditionalOnAvailableEndpoint(ControllersEndpoint.class)
@EnableConfigurationProperties(ControllersEndpointProperties.class)
public final class KubeReconcilerEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ControllerActivity controllerActivity() {
		return new ControllerActivity();
	}

	@Bean
	@ConditionalOnMissingBean
	ControllersEndpoint controllersEndpoint(ManagedControllers controllers, ControllerActivity activity,
			ControllersEndpointProperties properties) {
		return new ControllersEndpoint(controllers::getManager, activity, properties.getShowItems());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(ControllersEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	ControllersEndpointWebExtension controllersEndpointWebExtension(ControllersEndpoint endpoint,
			ControllersEndpointProperties properties, ObjectProvider<KubeReconcilerRbac> rbac) {
		KubeReconcilerRbac policy = rbac.getIfAvailable();
		return new ControllersEndpointWebExtension(endpoint, properties.getShowItems(), properties.getRoles(),
				(policy != null) ? policy::yaml : null);
	}

}
