package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfigurationTests.MirrorConfiguration;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.sharding.ShardingSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the {@code kube-reconciler.sharding.*} properties. The manager is built but
 * not started, so no API server is needed.
 */
class ShardingAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withUserConfiguration(MirrorConfiguration.class)
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void shardingIsOffByDefault() {
		this.contextRunner.run((context) -> assertThat(manager(context).shardCoordinator()).isNull());
	}

	@Test
	void enabledShardingUsesTheDefaults() {
		this.contextRunner
			.withPropertyValues("kube-reconciler.sharding.enabled=true",
					"kube-reconciler.defaults.reconcile-timeout=15s", "kube-reconciler.sharding.lease-namespace=team-a")
			.run((context) -> {
				ShardingSettings settings = manager(context).shardCoordinator().settings();
				assertThat(settings.partitions()).isEqualTo(32);
				assertThat(settings.leasePrefix()).isEqualTo("kube-reconciler-shard");
				assertThat(settings.leaseNamespace()).isEqualTo("team-a");
				assertThat(settings.timing().leaseDuration()).isEqualTo(Duration.ofSeconds(30));
				assertThat(settings.timing().renewDeadline()).isEqualTo(Duration.ofSeconds(10));
				assertThat(settings.timing().retryPeriod()).isEqualTo(Duration.ofSeconds(2));
				assertThat(manager(context).isLeaderElectionEnabled()).isFalse();
			});
	}

	@Test
	void leasePrefixDefaultsToACleanedApplicationName() {
		this.contextRunner
			.withPropertyValues("kube-reconciler.sharding.enabled=true",
					"kube-reconciler.defaults.reconcile-timeout=15s", "spring.application.name=Billing_Operator",
					"kube-reconciler.sharding.partitions=8")
			.run((context) -> {
				ShardingSettings settings = manager(context).shardCoordinator().settings();
				assertThat(settings.leasePrefix()).isEqualTo("billing-operator-shard");
				assertThat(settings.partitionLeaseName(7)).isEqualTo("billing-operator-shard-partition-7");
			});
	}

	@Test
	void aReconcileTimeoutThatOutlastsTheLeaseFailsStartup() {
		this.contextRunner.withPropertyValues("kube-reconciler.sharding.enabled=true").run((context) -> {
			InvalidPropertyException ex = failure(context);
			assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.configmap-mirror.reconcile-timeout");
			assertThat(ex.getReason()).contains("kube-reconciler.sharding.lease-duration (PT30S)")
				.contains("kube-reconciler.sharding.renew-deadline (PT10S)");
			assertThat(ex.getAction()).contains("below PT20S");
		});
	}

	@Test
	void shardingWithLeaderElectionFailsStartup() {
		this.contextRunner
			.withPropertyValues("kube-reconciler.sharding.enabled=true", "kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.defaults.reconcile-timeout=5s")
			.run((context) -> assertThat(failure(context).getProperty()).isEqualTo("kube-reconciler.sharding.enabled"));
	}

	@Test
	void badShardingSettingsFailStartup() {
		this.contextRunner
			.withPropertyValues("kube-reconciler.sharding.enabled=true", "kube-reconciler.sharding.partitions=0",
					"kube-reconciler.defaults.reconcile-timeout=5s")
			.run((context) -> {
				InvalidPropertyException ex = failure(context);
				assertThat(ex.getProperty()).isEqualTo("kube-reconciler.sharding");
				assertThat(ex.getReason()).contains("partitions must be between 1 and 1024");
			});
	}

	private static InvalidPropertyException failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidPropertyException ex) {
				return ex;
			}
		}
		throw new AssertionError("No InvalidPropertyException in " + context.getStartupFailure());
	}

	private static ControllerManager manager(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager();
	}

}
