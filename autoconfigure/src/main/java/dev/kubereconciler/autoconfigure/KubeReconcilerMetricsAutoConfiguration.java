package dev.kubereconciler.autoconfigure;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.kubereconciler.metrics.ControllerMetrics;
import dev.kubereconciler.metrics.LeaderElectionMetrics;
import dev.kubereconciler.metrics.ShardMetrics;
import dev.kubereconciler.metrics.StandardProcessMetrics;
import dev.kubereconciler.metrics.WebhookMetrics;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * Auto-configuration that publishes controller-runtime's and client-go's metrics through
 * Micrometer.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ ManagedControllers.class, MeterRegistry.class })
@ConditionalOnProperty(prefix = "kube-reconciler.metrics", name = "enabled", matchIfMissing = true)
public final class KubeReconcilerMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ControllerMetrics controllerMetrics(ObjectProvider<ManagedControllers> controllers,
			@Qualifier(KubeReconcilerAutoConfiguration.MANAGER_RATE_LIMITER_BEAN_NAME) ObjectProvider<TokenBucketRateLimiter<?>> managerBucket,
			KubeReconcilerProperties properties) {
		return new ControllerMetrics((name) -> controllers.getObject().getManager().controller(name),
				managerBucket::getIfAvailable,
				() -> properties.getMetrics().isClusterLabel() && controllers.getObject().getManager().hasFleet());
	}

	// the webhook server's listener too
	@Bean
	@ConditionalOnMissingBean
	WebhookMetrics webhookMetrics() {
		return new WebhookMetrics();
	}

	// static: a post-processor is created before the other beans; it measures every
	// ApiClient bean, the one the manager uses and any the application defines
	@Bean
	static BeanPostProcessor kubeReconcilerRestClientMetrics(ObjectProvider<MeterRegistry> registry) {
		return new RestClientMetricsPostProcessor(registry);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(prefix = "kube-reconciler.leader-election", name = "enabled")
	LeaderElectionMetrics leaderElectionMetrics(ObjectProvider<ManagedControllers> controllers,
			KubeReconcilerProperties properties, Environment environment) {
		return new LeaderElectionMetrics(
				LeaderElectionSettingsFactory.leaseName(properties.getLeaderElection(), environment), () -> {
					try {
						return controllers.getObject().isLeader();
					}
					catch (IllegalStateException ex) {
						// no manager yet
						return false;
					}
				});
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(prefix = "kube-reconciler.sharding", name = "enabled")
	ShardMetrics shardMetrics(ObjectProvider<ManagedControllers> controllers) {
		return new ShardMetrics(() -> controllers.getObject().getManager().shardCoordinator());
	}

	/**
	 * Prometheus' standard process metrics, in the Prometheus registry.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ PrometheusMeterRegistry.class, MultiCollector.class })
	@ConditionalOnBean(PrometheusMeterRegistry.class)
	@ConditionalOnProperty(prefix = "kube-reconciler.metrics.process", name = "enabled", matchIfMissing = true)
	static final class ProcessMetricsConfiguration {

		private static final Logger logger = LoggerFactory.getLogger(ProcessMetricsConfiguration.class);

		// registered once every singleton exists: a collector of these names that the
		// application registers itself is there by then, and keeps them
		@Bean
		SmartInitializingSingleton kubeReconcilerStandardProcessMetrics(
				ObjectProvider<PrometheusMeterRegistry> registry) {
			return () -> registry.ifAvailable((prometheus) -> {
				List<String> leftOut = StandardProcessMetrics.register(prometheus.getPrometheusRegistry(), prometheus);
				if (!leftOut.isEmpty()) {
					logger.info("Leaving {} to the collector registered already that publishes them", leftOut);
				}
			});
		}

	}

}
