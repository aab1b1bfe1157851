package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.ManagerRateLimiterProperties.Scope;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.sharding.ShardingSettings;

/**
 * Turns the {@code kube-reconciler.sharding.*} properties into a sharded manager, failing
 * startup with the property to fix when they cannot work.
 */
final class ShardingConfigurer {

	private static final String PREFIX = "kube-reconciler.sharding";

	private ShardingConfigurer() {
	}

	static void configure(ManagerBuilder builder, List<ControllerDefinition> definitions,
			KubeReconcilerProperties properties, Environment environment, String podNamespace, String identity) {
		ShardingProperties config = properties.getSharding();
		if (properties.getLeaderElection().isEnabled()) {
			throw new InvalidPropertyException(PREFIX + ".enabled", true,
					"sharding and leader election cannot both be enabled",
					"Set kube-reconciler.leader-election.enabled=false: with sharding every replica runs "
							+ "the controllers on its own partitions.");
		}
		ShardingSettings settings = settings(config, environment, podNamespace, identity);
		Duration budget = config.getLeaseDuration().minus(config.getRenewDeadline());
		for (ControllerDefinition definition : definitions) {
			Duration timeout = definition.reconcileTimeout();
			if (timeout.isZero() || timeout.compareTo(budget) >= 0) {
				throw new InvalidPropertyException(
						"kube-reconciler.controllers." + definition.name() + ".reconcile-timeout",
						timeout.isZero() ? "0 (none)" : timeout,
						"with sharding a reconcile must end before another replica can take its partition over: "
								+ "the reconcile timeout must be below " + PREFIX + ".lease-duration ("
								+ config.getLeaseDuration() + ") minus " + PREFIX + ".renew-deadline ("
								+ config.getRenewDeadline() + ")",
						"Lower the reconcile timeout (or kube-reconciler.defaults.reconcile-timeout) below " + budget
								+ ", or raise " + PREFIX + ".lease-duration.");
			}
		}
		builder.sharding(settings, properties.getManager().getRateLimiter().getScope() == Scope.CLUSTER);
	}

	private static String defaultPrefix(String applicationName) {
		String cleaned = applicationName.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]+", "-");
		cleaned = cleaned.substring(0, Math.min(cleaned.length(), 34)).replaceAll("^-+|-+$", "");
		return (cleaned.isEmpty() ? "kube-reconciler" : cleaned) + "-shard";
	}

	private static ShardingSettings settings(ShardingProperties config, Environment environment, String podNamespace,
			String identity) {
		String prefix = (config.getLeasePrefix() != null) ? config.getLeasePrefix()
				: defaultPrefix(environment.getProperty("spring.application.name", "kube-reconciler"));
		String namespace = (config.getLeaseNamespace() != null) ? config.getLeaseNamespace() : podNamespace;
		try {
			return new ShardingSettings(prefix, namespace, identity, config.getPartitions(),
					new LeaseTiming(config.getLeaseDuration(), config.getRenewDeadline(), config.getRetryPeriod()));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(PREFIX,
					"partitions=" + config.getPartitions() + ", lease-prefix=" + prefix + ", lease-duration="
							+ config.getLeaseDuration() + ", renew-deadline=" + config.getRenewDeadline()
							+ ", retry-period=" + config.getRetryPeriod(),
					ex.getMessage(),
					"Use 1 to 1024 partitions, a lease-prefix of lower-case letters, digits and '-' (at most 40), "
							+ "and retry-period < renew-deadline < lease-duration, for example 2s, 10s and 30s.");
		}
	}

}
