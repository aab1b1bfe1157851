package dev.kubereconciler.autoconfigure.webhook;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.actuate.KubeReconcilerHealthAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook warm-up: the {@code webhooksReadiness} indicator stays {@code DOWN} until
 * the webhook server has served itself an HTTPS request verified against its CA bundle.
 */
class WebhookSelfCheckReadinessTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerWebhookAutoConfiguration.class,
				KubeReconcilerHealthAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false", "kube-reconciler.webhooks.port=0")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void readinessIsDownUntilTheServerHasServedItsSelfCheck() {
		this.contextRunner.withUserConfiguration(KubeReconcilerWebhookAutoConfigurationTests.WebhookBeans.class)
			.run((context) -> {
				HealthIndicator readiness = context.getBean("webhooksReadinessHealthIndicator", HealthIndicator.class);
				WebhookServerLifecycle server = context.getBean(WebhookServerLifecycle.class);
				assertThat(readiness.health().getStatus()).isEqualTo(Status.DOWN);
				assertThat(readiness.health().getDetails()).containsEntry("selfCheckServed", false);
				server.start();
				assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
				server.stop();
				assertThat(readiness.health().getStatus()).isEqualTo(Status.DOWN);
			});
	}

	@Test
	void anApplicationWithoutWebhooksIsReadyAtOnce() {
		this.contextRunner.run((context) -> {
			HealthIndicator readiness = context.getBean("webhooksReadinessHealthIndicator", HealthIndicator.class);
			assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
		});
	}

}
