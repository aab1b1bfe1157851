package dev.kubereconciler.autoconfigure.webhook;

import java.nio.charset.StandardCharsets;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.actuate.KubeReconcilerHealthAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.webhook.server.SelfSignedCertificate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

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

	@Test
	void aBundleWhoseTrustStoreSignsItsCertificateBecomesReady() {
		SelfSignedCertificate served = SelfSignedCertificate.generate();
		withBundle(served, served.caBundle()).run((context) -> {
			context.getBean(WebhookServerLifecycle.class).start();
			HealthIndicator readiness = context.getBean("webhooksReadinessHealthIndicator", HealthIndicator.class);
			assertThat(readiness.health().getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void aCertificateItsCaBundleDoesNotSignIsNeverReadyAndNeverRegistered() {
		SelfSignedCertificate served = SelfSignedCertificate.generate();
		byte[] otherCa = SelfSignedCertificate.generate().caBundle();
		withBundle(served, otherCa).run((context) -> {
			context.getBean(WebhookServerLifecycle.class).start();
			HealthIndicator readiness = context.getBean("webhooksReadinessHealthIndicator", HealthIndicator.class);
			assertThat(readiness.health().getStatus()).isEqualTo(Status.DOWN);
		});
		withBundle(served, otherCa).withPropertyValues("kube-reconciler.webhooks.register=true")
			.run((context) -> assertThatIllegalStateException()
				.isThrownBy(() -> context.getBean(WebhookServerLifecycle.class).start())
				.withMessageContaining("self-check")
				.withMessageContaining("kube-reconciler.webhooks.ssl-bundle"));
	}

	private ApplicationContextRunner withBundle(SelfSignedCertificate served, byte[] trusted) {
		return this.contextRunner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withUserConfiguration(KubeReconcilerWebhookAutoConfigurationTests.WebhookBeans.class)
			.withPropertyValues("spring.ssl.bundle.pem.webhook.keystore.certificate=" + served.certificatePem(),
					"spring.ssl.bundle.pem.webhook.keystore.private-key=" + served.privateKeyPem(),
					"spring.ssl.bundle.pem.webhook.truststore.certificate="
							+ new String(trusted, StandardCharsets.US_ASCII),
					"kube-reconciler.webhooks.ssl-bundle=webhook");
	}

}
