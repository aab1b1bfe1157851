package dev.kubereconciler.webhook;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.google.gson.JsonElement;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.ApiextensionsV1ServiceReference;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1CustomResourceConversion;
import io.kubernetes.client.openapi.models.V1WebhookConversion;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.crd.WebhookClientConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WebhookClientConfig}.
 */
class WebhookClientConfigTests {

	private static final byte[] CA_BUNDLE = "-----BEGIN CERTIFICATE-----\n".getBytes(StandardCharsets.US_ASCII);

	@Test
	void aUrlGivesAConversionWebhookAtTheUrlAndPathWithTheCaBundle() {
		WebhookClientConfig webhook = WebhookClientConfig.url("https://127.0.0.1:9443/", CA_BUNDLE)
			.withPath(Webhooks.CONVERSION_PATH);
		assertThat(webhook)
			.isEqualTo(WebhookClientConfig.url("https://127.0.0.1:9443/convert").withCaBundle(CA_BUNDLE));
	}

	@Test
	void aServiceGivesAConversionWebhookThroughTheServiceWithoutACaBundle() {
		WebhookClientConfig webhook = WebhookClientConfig.service("ops", "widgets-webhook", 443)
			.withPath(Webhooks.CONVERSION_PATH);
		assertThat(webhook).isEqualTo(WebhookClientConfig.service("ops", "widgets-webhook", "/convert", 443));
	}

	@Test
	void theConversionOfAUrlIsTheOneClientJavasModelWrites() {
		WebhookClientConfig webhook = WebhookClientConfig.url("https://127.0.0.1:9443", CA_BUNDLE)
			.withPath(Webhooks.CONVERSION_PATH);
		assertThat(json(webhook.conversion())).isEqualTo(json(conversion(
				new ApiextensionsV1WebhookClientConfig().url("https://127.0.0.1:9443/convert").caBundle(CA_BUNDLE))));
	}

	@Test
	void theConversionOfAServiceIsTheOneClientJavasModelWrites() {
		WebhookClientConfig webhook = WebhookClientConfig.service("ops", "widgets-webhook", 443)
			.withPath(Webhooks.CONVERSION_PATH);
		assertThat(json(webhook.conversion())).isEqualTo(json(conversion(
				new ApiextensionsV1WebhookClientConfig().service(new ApiextensionsV1ServiceReference().namespace("ops")
					.name("widgets-webhook")
					.path("/convert")
					.port(443)))));
	}

	private static V1CustomResourceConversion conversion(ApiextensionsV1WebhookClientConfig clientConfig) {
		return new V1CustomResourceConversion().strategy("Webhook")
			.webhook(new V1WebhookConversion().conversionReviewVersions(List.of("v1")).clientConfig(clientConfig));
	}

	private static JsonElement json(Object value) {
		return JSON.getGson().toJsonTree(value);
	}

}
