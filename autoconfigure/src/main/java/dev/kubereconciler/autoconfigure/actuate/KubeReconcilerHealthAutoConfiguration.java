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
import dev.kubereconciler.actuate.WebhooksReadinessIndicator;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.webhook.KubeReconcilerWebhookAutoConfiguration;
import dev.kubereconciler.autoconfigure.webhook.WebhookServerLifecycle;

/**
 * Auto-configuration for the {@code controllers} health indicator.
 */
// after the probes' auto-configuration, so that its readiness group exists when ours runs
@AutoConfiguration(after = { KubeReconcilerAutoConfiguration.class, KubeReconcilerWebhookAutoConfiguration.class },
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
	@ConditionalOnBean(WebhookServerLifecycle.class)
	@ConditionalOnMissingBean(name = "webhooksReadinessHealthIndicator")
	WebhooksReadinessIndicator webhooksReadinessHealthIndicator(WebhookServerLifecycle webhookServer) {
		return new WebhooksReadinessIndicator(webhookServer::hasServedSelfCheck);
	}

	@Bean
	static ReadinessGroupPostProcessor controllersReadinessGroupPostProcessor(Environment environment) {
		return new ReadinessGroupPostProcessor(
				environment.containsProperty("management.endpoint.health.group.readiness.include"));
	}

}
