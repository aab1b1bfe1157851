package dev.kubereconciler.autoconfigure;

import java.util.HashSet;
import java.util.Set;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.actuate.ControllerActivity;
import dev.kubereconciler.actuate.ControllersEndpoint;
import dev.kubereconciler.actuate.ControllersHealthIndicator;

/**
 * Auto-configuration for the {@code controllers} Actuator endpoint and health indicator.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(ManagedControllers.class)
@EnableConfigurationProperties(ControllersEndpointAutoConfiguration.ControllersEndpointProperties.class)
public final class ControllersEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ControllerActivity controllerActivity() {
		return new ControllerActivity();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(ControllersEndpoint.class)
	ControllersEndpoint controllersEndpoint(ObjectProvider<ManagedControllers> controllers, ControllerActivity activity,
			ControllersEndpointProperties properties) {
		return new ControllersEndpoint(() -> controllers.getObject().getManager(), activity, properties.getShowItems(),
				properties.getRoles());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
	@ConditionalOnEnabledHealthIndicator("controllers")
	static class HealthConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "controllersHealthIndicator")
		ControllersHealthIndicator controllersHealthIndicator(ObjectProvider<ManagedControllers> controllers) {
			return new ControllersHealthIndicator(() -> controllers.getObject().getManager());
		}

	}

	/**
	 * Settings of the {@code controllers} endpoint.
	 */
	@ConfigurationProperties("management.endpoint.controllers")
	public static class ControllersEndpointProperties {

		/**
		 * When to show object keys (namespace/name) in the endpoint's responses.
		 */
		private Show showItems = Show.WHEN_AUTHORIZED;

		/**
		 * Roles that may see object keys when show-items is when-authorized. When empty, any
		 * authenticated user may.
		 */
		private Set<String> roles = new HashSet<>();

		public Show getShowItems() {
			return this.showItems;
		}

		public void setShowItems(Show showItems) {
			this.showItems = showItems;
		}

		public Set<String> getRoles() {
			return this.roles;
		}

		public void setRoles(Set<String> roles) {
			this.roles = roles;
		}

	}

}
