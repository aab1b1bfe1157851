package dev.kubereconciler.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;

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
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests the build generated for the sample ({@code target/kubernetes}, written
 * before the tests run) work as written: the Deployment's environment binds, through
 * Spring's own {@link Binder}, to the properties it means, and no file carries the empty
 * maps that make a client-side {@code kubectl apply} report {@code configured} on every
 * run.
 */
class GeneratedManifestsTests {

	private static final Path MANIFESTS = Path.of("target", "kubernetes");

	@Test
	void theDeploymentsEnvironmentBindsToTheSettingsItMeans() throws IOException {
		V1Deployment deployment = Yaml.loadAs(Files.readString(manifest("deployment.yaml")), V1Deployment.class);
		Map<String, String> variables = new LinkedHashMap<>();
		for (V1EnvVar variable : deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
			variables.put(variable.getName(), variable.getValue());
		}
		assertThat(variables.keySet()).noneMatch((name) -> name.startsWith("KUBE_RECONCILER_"));

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
			.get();
		assertThat(properties.getLeaderElection().isEnabled()).isFalse();
		assertThat(properties.getShutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
		WebhookProperties webhooks = binder
			.bind("kube-reconciler.webhooks", Bindable.ofInstance(new WebhookProperties()), recording)
			.get();
		assertThat(webhooks.getSslBundle()).isEqualTo("webhook");
		assertThat(webhooks.getPort()).isEqualTo(9443);
		SslProperties ssl = binder.bind("spring.ssl", Bindable.ofInstance(new SslProperties()), recording).get();
		PemSslBundleProperties bundle = ssl.getBundle().getPem().get("webhook");
		assertThat(bundle.getKeystore().getCertificate())
			.isEqualTo("file:/tmp/k8s-webhook-server/serving-certs/tls.crt");
		assertThat(bundle.getKeystore().getPrivateKey())
			.isEqualTo("file:/tmp/k8s-webhook-server/serving-certs/tls.key");
		assertThat(bundle.isReloadOnUpdate()).isTrue();
		// what Spring Boot's AvailabilityProbesAutoConfiguration reads
		assertThat(
				binder.bind("management.endpoint.health.probes.enabled", Bindable.of(Boolean.class), recording).get())
			.isTrue();
		assertThat(variables.keySet()).as("every variable binds to a property").isEqualTo(bound);
	}

	// the CRD's status subresource and cert-manager's self-signed Issuer are empty by
	// meaning, and stored as written
	@Test
	void noGeneratedFileCarriesAnEmptyMapOrListBeyondThoseThatMeanSomething() throws IOException {
		List<String> empties = new ArrayList<>();
		try (Stream<Path> files = Files.walk(manifest("kustomization.yaml").getParent())) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".yaml")).sorted().toList()) {
				org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml();
				for (Object document : yaml.loadAll(Files.readString(file))) {
					collectEmpties(document, MANIFESTS.relativize(file) + ":", empties);
				}
			}
		}
		assertThat(empties).containsExactlyInAnyOrder(
				"crds/widgets.sample.kubereconciler.dev.yaml:.spec.versions[0].subresources.status",
				"webhook-certificate.yaml:.spec.selfSigned");
	}

	private static void collectEmpties(Object node, String path, List<String> empties) {
		if (node instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				empties.add(path);
			}
			map.forEach((key, value) -> collectEmpties(value, path + "." + key, empties));
		}
		else if (node instanceof List<?> list) {
			if (list.isEmpty()) {
				empties.add(path);
			}
			for (int i = 0; i < list.size(); i++) {
				collectEmpties(list.get(i), path + "[" + i + "]", empties);
			}
		}
	}

	private static Path manifest(String file) {
		Path path = MANIFESTS.resolve(file);
		assertThat(path)
			.as("generated by the build (process-classes, before the tests): run "
					+ "./mvnw -pl sample-app -am verify, not the test class alone")
			.isRegularFile();
		return path;
	}

}
