package dev.kubereconciler.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.manager.ControllerManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The fleet's settings: where a controller reconciles, and the clusters and kubeconfig
 * Secrets that engage clusters, with bad input refused naming the property and the fix.
 */
class ClusterConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withUserConfiguration(KubeReconcilerAutoConfigurationTests.MirrorConfiguration.class)
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void aControllerRunsOnTheLocalClusterUnlessItsPropertySaysFleet() {
		this.contextRunner
			.run((context) -> assertThat(manager(context).controller("configmap-mirror").definition().clusters())
				.isEqualTo(ClusterScope.LOCAL));
		this.contextRunner.withPropertyValues("kube-reconciler.controllers.configmap-mirror.clusters=fleet")
			.run((context) -> {
				ControllerManager manager = manager(context);
				assertThat(manager.controller("configmap-mirror").definition().clusters())
					.isEqualTo(ClusterScope.FLEET);
				assertThat(manager.clusters()).isEmpty();
				assertThat(manager.fleet()).isNotNull();
			});
	}

	@Test
	void theManagerBucketIsSharedAcrossClustersUnlessItsPropertySaysSplit() {
		this.contextRunner
			.run((context) -> assertThat(manager(context).gate().forCluster("east")).isSameAs(manager(context).gate()));
		this.contextRunner
			.withPropertyValues("kube-reconciler.manager.rate-limiter.qps=30",
					"kube-reconciler.manager.rate-limiter.across-clusters=split")
			.run((context) -> {
				ManagerGate gate = manager(context).gate();
				assertThat(gate.acrossClusters()).isEqualTo(ManagerGate.AcrossClusters.SPLIT);
				assertThat(gate.forCluster("")).isSameAs(gate);
				assertThat(gate.forCluster("east").bucket()).isNotSameAs(gate.bucket());
				assertThat(gate.forCluster("east").bucket().qps()).isEqualTo(30);
			});
	}

	@Test
	void aClusterWithTwoKubeconfigsIsRefused() {
		assertInvalid("kube-reconciler.clusters.east.kubeconfig", "exactly one of",
				"kube-reconciler.clusters.east.kubeconfig.file=/tmp/east.yaml",
				"kube-reconciler.clusters.east.kubeconfig.secret=fleet/east");
	}

	@Test
	void aClusterWithoutAKubeconfigIsRefused() {
		assertInvalid("kube-reconciler.clusters.east.kubeconfig", "exactly one of",
				"kube-reconciler.clusters.east.kubeconfig.key=config");
	}

	@Test
	void aSecretReferenceWithoutNamespaceIsRefused() {
		assertInvalid("kube-reconciler.clusters.east.kubeconfig.secret", "namespace/name",
				"kube-reconciler.clusters.east.kubeconfig.secret=east");
	}

	@Test
	void kubeconfigSecretsWithoutANamespaceAreRefused() {
		assertInvalid("kube-reconciler.cluster-secrets.namespace", "namespace of the Secrets",
				"kube-reconciler.cluster-secrets.enabled=true");
	}

	@Test
	void clusterProfilesWithoutANamespaceAreRefused() {
		assertInvalid("kube-reconciler.cluster-profiles.namespace", "namespace of the ClusterProfiles",
				"kube-reconciler.cluster-profiles.enabled=true",
				"kube-reconciler.cluster-profiles.consumer=widgets-manager");
	}

	@Test
	void clusterProfilesWithASecretConsumerAndAccessProvidersAreRefused() {
		assertInvalid("kube-reconciler.cluster-profiles.consumer", "exactly one of",
				"kube-reconciler.cluster-profiles.enabled=true", "kube-reconciler.cluster-profiles.namespace=fleet",
				"kube-reconciler.cluster-profiles.consumer=widgets-manager",
				"kube-reconciler.cluster-profiles.access-providers.vault.command=/usr/local/bin/vault-plugin");
	}

	@Test
	void anAccessProviderWithoutACommandIsRefused() {
		assertInvalid("kube-reconciler.cluster-profiles.access-providers.vault.command", "plugin's executable",
				"kube-reconciler.cluster-profiles.enabled=true", "kube-reconciler.cluster-profiles.namespace=fleet",
				"kube-reconciler.cluster-profiles.access-providers.vault.args=--role,fleet");
	}

	@Test
	void anAccessProviderOfAnotherApiVersionIsRefused() {
		assertInvalid("kube-reconciler.cluster-profiles.access-providers.vault.api-version", "client.authentication",
				"kube-reconciler.cluster-profiles.enabled=true", "kube-reconciler.cluster-profiles.namespace=fleet",
				"kube-reconciler.cluster-profiles.access-providers.vault.command=vault-plugin",
				"kube-reconciler.cluster-profiles.access-providers.vault.api-version=client.authentication.k8s.io/v1alpha1");
	}

	@Test
	void aProvidersFileWithoutExecConfigIsRefused(@TempDir Path folder) throws Exception {
		Path file = Files.writeString(folder.resolve("providers.json"), "{\"providers\": [{\"name\": \"vault\"}]}");
		assertInvalid("kube-reconciler.cluster-profiles.access-providers-file", "providers file",
				"kube-reconciler.cluster-profiles.enabled=true", "kube-reconciler.cluster-profiles.namespace=fleet",
				"kube-reconciler.cluster-profiles.access-providers-file=" + file);
	}

	@Test
	void theClusterInventoryApisOwnProvidersFileIsRead(@TempDir Path folder) throws Exception {
		// the Cluster Inventory API's own example, as its controller reads it
		Path file = Files.writeString(folder.resolve("providers.json"), """
				{
				  "providers": [
				    {
				      "name": "secretreader",
				      "execConfig": {
				        "apiVersion": "client.authentication.k8s.io/v1",
				        "args": null,
				        "command": "./bin/secretreader-plugin",
				        "env": null,
				        "provideClusterInfo": true
				      }
				    }
				  ]
				}
				""");
		this.contextRunner
			.withPropertyValues("kube-reconciler.cluster-profiles.enabled=true",
					"kube-reconciler.cluster-profiles.namespace=fleet",
					"kube-reconciler.cluster-profiles.access-providers-file=" + file)
			.run((context) -> assertThat(manager(context).fleet()).isNotNull());
	}

	private void assertInvalid(String property, String action, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			Throwable failure = (context.getStartupFailure() != null) ? context.getStartupFailure()
					: catchThrowable(() -> context.getBean(ManagedControllers.class).getManager());
			Throwable cause = failure;
			while (cause != null && !(cause instanceof InvalidPropertyException)) {
				cause = cause.getCause();
			}
			assertThat(cause).isInstanceOf(InvalidPropertyException.class);
			InvalidPropertyException invalid = (InvalidPropertyException) cause;
			assertThat(invalid.getProperty()).isEqualTo(property);
			assertThat(invalid.getAction()).contains(action);
		});
	}

	private static ControllerManager manager(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager();
	}

}
