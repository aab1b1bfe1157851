package dev.kubereconciler.autoconfigure.manifests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementServerProperties;
import org.springframework.boot.autoconfigure.ssl.PemSslBundleProperties;
import org.springframework.boot.autoconfigure.ssl.SslProperties;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.LeaderElectionProperties;
import dev.kubereconciler.autoconfigure.ShardingProperties;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated Deployment's environment reaches the application: every variable the
 * generator writes, with every generator option on, is bound by Spring's own
 * {@link Binder} from a {@link SystemEnvironmentPropertySource}, as in the pod, and each
 * value arrives at its property.
 */
class GeneratedDeploymentEnvironmentTests {

	@TempDir
	Path output;

	@Test
	void leaderElectionShutdownWebhookAndPortVariablesBindToTheirProperties() throws Exception {
		KubernetesManifestsGenerator.generate(KubernetesManifestsGeneratorTests.WebhookApplication.class, this.output,
				"--spring.application.name=judge", "--kube-reconciler.leader-election.enabled=true",
				"--kube-reconciler.leader-election.lease-name=judge-leader",
				"--kube-reconciler.leader-election.lease-namespace=ops",
				"--kube-reconciler.leader-election.lease-duration=21s",
				"--kube-reconciler.leader-election.renew-deadline=13s",
				"--kube-reconciler.leader-election.retry-period=3s", "--kube-reconciler.leader-election.warmup=false",
				"--kube-reconciler.shutdown-timeout=20s", "--kube-reconciler.webhooks.port=9555",
				"--management.server.port=9090", "--kube-reconciler.deployment.jvm-options=-Dspring.aot.enabled=true");
		Bound bound = bind(environment());
		LeaderElectionProperties election = bound.properties().getLeaderElection();
		assertThat(election.isEnabled()).isTrue();
		assertThat(election.getLeaseName()).isEqualTo("judge-leader");
		assertThat(election.getLeaseNamespace()).isEqualTo("ops");
		assertThat(election.getLeaseDuration()).isEqualTo(Duration.ofSeconds(21));
		assertThat(election.getRenewDeadline()).isEqualTo(Duration.ofSeconds(13));
		assertThat(election.getRetryPeriod()).isEqualTo(Duration.ofSeconds(3));
		assertThat(election.isWarmup()).isFalse();
		assertThat(bound.properties().getSharding().isEnabled()).isFalse();
		assertThat(bound.properties().getShutdownTimeout()).isEqualTo(Duration.ofSeconds(20));
		assertThat(bound.webhooks().getSslBundle()).isEqualTo("webhook");
		// the port the container declares is the port the server binds
		assertThat(bound.webhooks().getPort()).isEqualTo(9555);
		assertThat(bound.management().getPort()).isEqualTo(9090);
		assertThat(bound.probes()).isTrue();
		PemSslBundleProperties bundle = bound.ssl().getBundle().getPem().get("webhook");
		assertThat(bundle.getKeystore().getCertificate())
			.isEqualTo("file:/tmp/k8s-webhook-server/serving-certs/tls.crt");
		assertThat(bundle.getKeystore().getPrivateKey())
			.isEqualTo("file:/tmp/k8s-webhook-server/serving-certs/tls.key");
		assertThat(bundle.isReloadOnUpdate()).isTrue();
		assertThat(bound.unbound()).as("variables that bind to no property").containsExactly("JAVA_TOOL_OPTIONS");
	}

	@Test
	void shardingVariablesBindToTheirProperties() throws Exception {
		KubernetesManifestsGenerator.generate(KubernetesManifestsGeneratorTests.Application.class, this.output,
				"--spring.application.name=mirror", "--kube-reconciler.sharding.enabled=true",
				"--kube-reconciler.sharding.partitions=16", "--kube-reconciler.sharding.lease-prefix=mirror-shards",
				"--kube-reconciler.sharding.lease-namespace=ops", "--kube-reconciler.sharding.lease-duration=40s",
				"--kube-reconciler.sharding.renew-deadline=12s", "--kube-reconciler.sharding.retry-period=4s",
				"--kube-reconciler.controllers.mirror.reconcile-timeout=20s");
		Bound bound = bind(environment());
		ShardingProperties sharding = bound.properties().getSharding();
		assertThat(sharding.isEnabled()).isTrue();
		assertThat(sharding.getPartitions()).isEqualTo(16);
		assertThat(sharding.getLeasePrefix()).isEqualTo("mirror-shards");
		assertThat(sharding.getLeaseNamespace()).isEqualTo("ops");
		assertThat(sharding.getLeaseDuration()).isEqualTo(Duration.ofSeconds(40));
		assertThat(sharding.getRenewDeadline()).isEqualTo(Duration.ofSeconds(12));
		assertThat(sharding.getRetryPeriod()).isEqualTo(Duration.ofSeconds(4));
		assertThat(bound.properties().getLeaderElection().isEnabled()).isFalse();
		assertThat(bound.unbound()).as("variables that bind to no property").isEmpty();
	}

	// JAVA_TOOL_OPTIONS is the JVM's, not Spring's: a JVM started with it has the options
	@Test
	void jvmOptionsReachAJvmStartedWithTheEnvironment() throws Exception {
		KubernetesManifestsGenerator.generate(KubernetesManifestsGeneratorTests.Application.class, this.output,
				"--spring.application.name=mirror",
				"--kube-reconciler.deployment.jvm-options= -Dspring.aot.enabled=true -Dmirror.flag=on ");
		String options = environment().get("JAVA_TOOL_OPTIONS");
		ProcessBuilder java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-XshowSettings:properties", "-version")
			.redirectErrorStream(true);
		java.environment().put("JAVA_TOOL_OPTIONS", options);
		Process process = java.start();
		String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor()).as(printed).isZero();
		assertThat(printed).contains("spring.aot.enabled = true", "mirror.flag = on");
	}

	private Map<String, String> environment() throws IOException {
		V1Deployment deployment = Yaml.loadAs(Files.readString(this.output.resolve("deployment.yaml")),
				V1Deployment.class);
		Map<String, String> environment = new LinkedHashMap<>();
		List<V1EnvVar> variables = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
		variables.forEach((variable) -> environment.put(variable.getName(), variable.getValue()));
		assertThat(environment).as("one value per variable").hasSameSizeAs(variables);
		return environment;
	}

	/**
	 * Bind the variables as the pod's application does: from the system environment
	 * source, through Spring's {@link Binder}, into the properties classes that read
	 * them; and note the variables that bound nothing.
	 */
	static Bound bind(Map<String, String> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.copyOf(variables)));
		ConfigurationPropertySources.attach(environment);
		Binder binder = Binder.get(environment);
		Set<String> bound = new TreeSet<>();
		BindHandler recording = new AbstractBindHandler() {

			@Override
			public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Object result) {
				ConfigurationProperty property = context.getConfigurationProperty();
				if (property != null && property.getOrigin() instanceof PropertySourceOrigin origin) {
					bound.add(origin.getPropertyName());
				}
				return result;
			}

		};
		KubeReconcilerProperties properties = binder
			.bind("kube-reconciler", Bindable.ofInstance(new KubeReconcilerProperties()), recording)
			.orElseGet(KubeReconcilerProperties::new);
		WebhookProperties webhooks = binder
			.bind("kube-reconciler.webhooks", Bindable.ofInstance(new WebhookProperties()), recording)
			.orElseGet(WebhookProperties::new);
		SslProperties ssl = binder.bind("spring.ssl", Bindable.ofInstance(new SslProperties()), recording)
			.orElseGet(SslProperties::new);
		ManagementServerProperties management = binder
			.bind("management.server", Bindable.ofInstance(new ManagementServerProperties()), recording)
			.orElseGet(ManagementServerProperties::new);
		// what Spring Boot's AvailabilityProbesAutoConfiguration reads
		boolean probes = binder.bind("management.endpoint.health.probes.enabled", Bindable.of(Boolean.class), recording)
			.orElse(false);
		Set<String> unbound = new TreeSet<>(variables.keySet());
		unbound.removeAll(bound);
		return new Bound(properties, webhooks, ssl, management, probes, unbound);
	}

	record Bound(KubeReconcilerProperties properties, WebhookProperties webhooks, SslProperties ssl,
			ManagementServerProperties management, boolean probes, Set<String> unbound) {

	}

}
