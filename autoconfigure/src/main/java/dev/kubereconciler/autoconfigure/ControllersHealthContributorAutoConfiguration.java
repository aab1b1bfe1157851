package dev.kubereconciler.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.actuate.ControllersHealthIndicator;

/**
 * Auto-configuration for the {@code controllers} health indicator.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(ManagedControllers.class)
@ConditionalOnEnabledHealthIndicator("controllers")
public final class ControllersHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "controllersHealthIndicator", "controllersHealthContributor" })
	ControllersHealthIndicator controllersHealthIndicator(ManagedControllers controllers) {
		return new ControllersHealthIndicator(controllers::getManager);
	}

}
