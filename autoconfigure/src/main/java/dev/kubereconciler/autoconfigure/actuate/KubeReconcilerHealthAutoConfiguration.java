package dev.kubereconciler.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.kubereconciler.actuate.ControllersHealthIndicator;
import dev.kubereconciler.actuate.ControllersReadinessIndicator;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;

/**
 * Auto-configuration for the {@code controllers} health indicator.
 */
// after the probes' auto-configuration, so that its readiness group exists when ours runs
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class,
		afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ManagedControllers.class)
@ConditionalOnEnabledHealthIndicator("controllers")
public final class KubeReconcilerHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "controllersHealthIndicator", "controllersHealthContributor" })
	ControllersHealthIndicator controllersHealthIndicator(ManagedControllers controllers) {
		return new ControllersHealthIndicator(controllers::getManager);
	}

	@Bean
	@ConditionalOnMissingBean(name = "controllersReadinessHealthIndicator")
	ControllersReadinessIndicator controllersReadinessHealthIndicator(ManagedControllers controllers) {
		return new ControllersReadinessIndicator(controllers::getManager);
	}

	@Bean
	static ReadinessGroupPostProcessor controllersReadinessGroupPostProcessor(Environment environment) {
		return new ReadinessGroupPostProcessor(
				environment.containsProperty("management.endpoint.health.group.readiness.include"));
	}

}
