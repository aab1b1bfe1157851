package dev.kubereconciler.autoconfigure.webhook;

import java.io.IOException;
import java.net.ServerSocket;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.InvalidPropertyFailureAnalyzer;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.RbacCustomizer;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.admission.AdmissionWebhook;
import dev.kubereconciler.webhook.Webhooks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerWebhookAutoConfiguration}.
 */
class KubeReconcilerWebhookAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerWebhookAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false", "kube-reconciler.webhooks.port=0")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void beansAreServedForTheTypesTheirDeclarationsName() {
		this.contextRunner.withUserConfiguration(WebhookBeans.class).run((context) -> {
			Webhooks webhooks = context.getBean(Webhooks.class);
			assertThat(webhooks.admissionWebhooks()).extracting(AdmissionWebhook::path)
				.containsExactlyInAnyOrder("/validate--v1-secret", "/mutate--v1-configmap");
		});
	}

	@Test
	void anApplicationWithoutWebhookBeansServesNothing() {
		this.contextRunner.withPropertyValues("kube-reconciler.auto-startup=true").run((context) -> {
			assertThat(context.getBean(Webhooks.class).isEmpty()).isTrue();
			assertThat(context.getBean(WebhookServerLifecycle.class).isRunning()).isFalse();
		});
	}

	@Test
	void theServerStartsWithTheContextOnItsOwnPort() {
		this.contextRunner.withUserConfiguration(WebhookBeans.class)
			.withPropertyValues("kube-reconciler.auto-startup=true")
			.run((context) -> {
				WebhookServerLifecycle server = context.getBean(WebhookServerLifecycle.class);
				assertThat(server.isRunning()).isTrue();
				assertThat(server.getPort()).isPositive();
			});
	}

	@Test
	void webhooksCanBeTurnedOff() {
		this.contextRunner.withUserConfiguration(WebhookBeans.class)
			.withPropertyValues("kube-reconciler.webhooks.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Webhooks.class)
				.doesNotHaveBean(WebhookServerLifecycle.class));
	}

	@Test
	void registrationAddsTheRbacOfWhatItWrites() {
		ApplicationContextRunner withRbac = this.contextRunner
			.withConfiguration(AutoConfigurations.of(KubeReconcilerRbacAutoConfiguration.class));
		withRbac.withUserConfiguration(WebhookBeans.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RbacCustomizer.class));
		withRbac.withUserConfiguration(WebhookBeans.class)
			.withPropertyValues("kube-reconciler.webhooks.register=true")
			.run((context) -> assertThat(context).hasSingleBean(RbacCustomizer.class));
	}

	@Test
	void aPortOutOfRangeFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("kube-reconciler.webhooks.port=70000")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kube-reconciler.webhooks.port")
				.isInstanceOfSatisfying(InvalidPropertyException.class,
						(ex) -> assertThat(ex.getAction()).contains("Give a port from 1 to 65535")));
	}

	@Test
	void aPortInUseFailsStartupNamingThePropertyAndTheFix() throws IOException {
		try (ServerSocket taken = new ServerSocket(0)) {
			int port = taken.getLocalPort();
			this.contextRunner.withUserConfiguration(WebhookBeans.class)
				.withPropertyValues("kube-reconciler.auto-startup=true", "kube-reconciler.webhooks.port=" + port)
				.run((context) -> {
					assertThat(context).getFailure()
						.rootCause()
						.isInstanceOfSatisfying(InvalidPropertyException.class, (ex) -> {
							assertThat(ex.getProperty()).isEqualTo("kube-reconciler.webhooks.port");
							assertThat(ex.getValue()).isEqualTo(port);
						});
					FailureAnalysis analysis = new InvalidPropertyFailureAnalyzer()
						.analyze(context.getStartupFailure());
					assertThat(analysis.getDescription()).contains("Property: kube-reconciler.webhooks.port",
							"Value: " + port, "already in use");
					assertThat(analysis.getAction()).contains("kube-reconciler.webhooks.port to a free port");
				});
		}
	}

	@Test
	void aTimeoutTheApiServerRefusesFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("kube-reconciler.webhooks.timeout=45s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kube-reconciler.webhooks.timeout")
				.isInstanceOfSatisfying(InvalidPropertyException.class,
						(ex) -> assertThat(ex.getAction()).contains("from 1s to 30s")));
	}

	@Test
	void aPlainHttpUrlFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("kube-reconciler.webhooks.url=http://127.0.0.1:9443")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kube-reconciler.webhooks.url")
				.hasMessageContaining("only over HTTPS"));
	}

	@Test
	void anUnknownSslBundleFailsStartupNamingItAndTheFix() {
		this.contextRunner.withUserConfiguration(WebhookBeans.class)
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withPropertyValues("kube-reconciler.auto-startup=true", "kube-reconciler.webhooks.ssl-bundle=missing")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kube-reconciler.webhooks.ssl-bundle")
				.isInstanceOfSatisfying(InvalidPropertyException.class,
						(ex) -> assertThat(ex.getAction()).contains("spring.ssl.bundle.pem.missing")));
	}

	@Configuration(proxyBeanMethods = false)
	static class WebhookBeans {

		@Bean
		AdmissionValidator<V1Secret> secretValidator() {
			return new AdmissionValidator<>() {
			};
		}

		@Bean
		AdmissionDefaulter<V1ConfigMap> configMapDefaulter() {
			return (configMap, request) -> configMap.putDataItem("defaulted", "true");
		}

	}

}
