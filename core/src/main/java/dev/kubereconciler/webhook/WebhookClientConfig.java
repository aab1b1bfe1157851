package dev.kubereconciler.webhook;

import java.util.Arrays;
import java.util.Objects;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.crd.ConversionWebhook;
import dev.kubereconciler.crd.ConversionWebhook.ServiceReference;

/**
 * How the API server reaches the application's webhook server: through a Service in the
 * cluster, or at a URL (a process outside the cluster, such as an application in
 * development or a test), with the CA that signed the server's certificate. It writes the
 * {@code clientConfig} of the admission webhooks' configurations, and gives the
 * {@link ConversionWebhook} that writes the {@code spec.conversion} of the CRDs whose
 * versions the server converts.
 *
 * @param url the base URL, such as {@code https://127.0.0.1:9443}, or {@code null} for a
 * Service
 * @param serviceNamespace the Service's namespace, or {@code null} for a URL
 * @param serviceName the Service's name, or {@code null} for a URL
 * @param servicePort the Service's port
 * @param caBundle the PEM of the CA that signed the server's certificate, or {@code null}
 * where another writes it (cert-manager's CA injector)
 */
public record WebhookClientConfig(@Nullable String url, @Nullable String serviceNamespace, @Nullable String serviceName,
		int servicePort, byte @Nullable [] caBundle) {

	/**
	 * Return the config of a webhook server reached at a URL.
	 * @param url the base URL, such as {@code https://127.0.0.1:9443}
	 * @param caBundle the PEM of the CA that signed the server's certificate
	 * @return the config
	 */
	public static WebhookClientConfig url(String url, byte[] caBundle) {
		Objects.requireNonNull(url, "url must not be null");
		return new WebhookClientConfig(url.endsWith("/") ? url.substring(0, url.length() - 1) : url, null, null, 0,
				caBundle);
	}

	/**
	 * Return the config of a webhook server behind a Service.
	 * @param namespace the Service's namespace
	 * @param name the Service's name
	 * @param port the Service's port, usually 443
	 * @return the config, without a CA bundle, which cert-manager injects
	 */
	public static WebhookClientConfig service(String namespace, String name, int port) {
		return new WebhookClientConfig(null, namespace, name, port, null);
	}

	/**
	 * Return the client config of an admission webhook.
	 * @param path the webhook's path
	 * @return the client-java model
	 */
	public AdmissionregistrationV1WebhookClientConfig admission(String path) {
		AdmissionregistrationV1WebhookClientConfig config = new AdmissionregistrationV1WebhookClientConfig()
			.caBundle(this.caBundle);
		if (this.url != null) {
			return config.url(this.url + path);
		}
		return config.service(new AdmissionregistrationV1ServiceReference().namespace(this.serviceNamespace)
			.name(this.serviceName)
			.port(this.servicePort)
			.path(path));
	}

	/**
	 * Return the conversion webhook of a CRD whose versions the webhook server converts,
	 * which writes the CRD's {@code spec.conversion}.
	 * @param path the conversion webhook's path, {@link Webhooks#CONVERSION_PATH}
	 * @return the conversion webhook, with this config's CA bundle, if any
	 * @throws IllegalArgumentException if the URL is not one the API server accepts for a
	 * conversion webhook
	 */
	public ConversionWebhook conversionWebhook(String path) {
		if (this.url != null) {
			return new ConversionWebhook(null, this.url + path, this.caBundle);
		}
		ServiceReference service = new ServiceReference(
				Objects.requireNonNull(this.serviceNamespace, "serviceNamespace must not be null"),
				Objects.requireNonNull(this.serviceName, "serviceName must not be null"), path, this.servicePort);
		return new ConversionWebhook(service, null, this.caBundle);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof WebhookClientConfig that && Objects.equals(this.url, that.url)
				&& Objects.equals(this.serviceNamespace, that.serviceNamespace)
				&& Objects.equals(this.serviceName, that.serviceName) && this.servicePort == that.servicePort
				&& Arrays.equals(this.caBundle, that.caBundle);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.url, this.serviceNamespace, this.serviceName, this.servicePort)
				+ Arrays.hashCode(this.caBundle);
	}

	@Override
	public String toString() {
		return (this.url != null) ? this.url
				: "service " + this.serviceNamespace + "/" + this.serviceName + ":" + this.servicePort;
	}

}
