package dev.kubereconciler.crd;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Where the API server calls a webhook, Kubernetes' {@code WebhookClientConfig}: either a
 * Service in the cluster or a URL, and the CA bundle with which the API server verifies
 * the webhook's serving certificate. One type serves the {@code clientConfig} of a CRD's
 * {@code spec.conversion.webhook}, which {@link #conversion()} writes, and that of the
 * admission webhooks' configurations; a webhook server's config names no path, and
 * {@link #withPath(String)} gives each of its webhooks its own.
 *
 * @param service the Service that serves the webhook, or {@code null} with a URL
 * @param url the {@code https} URL of the webhook, or {@code null} with a Service
 * @param caBundle the PEM-encoded CA bundle the API server trusts for the webhook, or
 * {@code null} to leave it out (for a cert-manager CA injector to fill, or for a URL
 * whose certificate the API server's own roots trust)
 */
public record WebhookClientConfig(@Nullable ServiceReference service, @Nullable String url,
		byte @Nullable [] caBundle) {

	/**
	 * Check that exactly one of a Service and a URL is given, and copy the CA bundle.
	 * @param service the Service that serves the webhook
	 * @param url the URL of the webhook
	 * @param caBundle the PEM-encoded CA bundle
	 * @throws IllegalArgumentException if both or neither of a Service and a URL are
	 * given, or the URL is not one the API server accepts
	 */
	public WebhookClientConfig {
		if ((service == null) == (url == null)) {
			throw new IllegalArgumentException("A conversion webhook is reached by a Service or by a URL, not "
					+ ((service == null) ? "neither" : "both"));
		}
		if (url != null) {
			checkUrl(url);
		}
		caBundle = (caBundle != null) ? caBundle.clone() : null;
	}

	/**
	 * Return a webhook reached through a Service in the cluster.
	 * @param namespace the Service's namespace
	 * @param name the Service's name
	 * @param path the path of the conversion endpoint, such as {@code /convert}
	 * @param port the Service's port
	 * @return the webhook, without a CA bundle
	 */
	public static WebhookClientConfig service(String namespace, String name, String path, int port) {
		return new WebhookClientConfig(new ServiceReference(namespace, name, path, port), null, null);
	}

	/**
	 * Return the config of a webhook server behind a Service, whose webhooks each get a
	 * path from {@link #withPath(String)}.
	 * @param namespace the Service's namespace
	 * @param name the Service's name
	 * @param port the Service's port, usually 443
	 * @return the config, without a CA bundle, which cert-manager injects
	 */
	public static WebhookClientConfig service(String namespace, String name, int port) {
		return new WebhookClientConfig(new ServiceReference(namespace, name, null, port), null, null);
	}

	/**
	 * Return a webhook reached by URL, such as a webhook outside the cluster.
	 * @param url the {@code https} URL, without a query or fragment
	 * @return the webhook, without a CA bundle
	 */
	public static WebhookClientConfig url(String url) {
		return new WebhookClientConfig(null, url, null);
	}

	/**
	 * Return the config of a webhook server reached at a URL, such as a process outside
	 * the cluster, whose webhooks each get a path from {@link #withPath(String)}.
	 * @param url the base URL, such as {@code https://127.0.0.1:9443}; a trailing slash
	 * is dropped
	 * @param caBundle the PEM of the CA that signed the server's certificate
	 * @return the config
	 */
	public static WebhookClientConfig url(String url, byte[] caBundle) {
		Objects.requireNonNull(url, "url must not be null");
		return new WebhookClientConfig(null, url.endsWith("/") ? url.substring(0, url.length() - 1) : url, caBundle);
	}

	/**
	 * Return this webhook with a CA bundle.
	 * @param caBundle the PEM-encoded CA bundle the API server trusts for the webhook
	 * @return a new webhook
	 */
	public WebhookClientConfig withCaBundle(byte[] caBundle) {
		return new WebhookClientConfig(this.service, this.url, caBundle);
	}

	/**
	 * Return the config of one webhook of the server this config reaches: the path
	 * appended to the URL, or given to the Service.
	 * @param path the webhook's path, such as {@code /convert}
	 * @return a new config, with this config's CA bundle, if any
	 * @throws IllegalArgumentException if the URL is not one the API server accepts
	 */
	public WebhookClientConfig withPath(String path) {
		if (this.service != null) {
			String base = (this.service.path() != null) ? this.service.path() : "";
			return new WebhookClientConfig(new ServiceReference(this.service.namespace(), this.service.name(),
					base + path, this.service.port()), null, this.caBundle);
		}
		return new WebhookClientConfig(null, this.url + path, this.caBundle);
	}

	/**
	 * Return the {@code spec.conversion} of a CRD whose versions this webhook converts,
	 * as plain maps, lists, strings and numbers, for a caller that patches an installed
	 * CRD rather than writing it whole; it needs nothing of the CRD generator's
	 * build-time dependencies, so an application may call it at run time.
	 * @return {@code {strategy: Webhook, webhook: {clientConfig: {service: {namespace,
	 * name, path, port} | url, caBundle}, conversionReviewVersions: [v1]}}}, with the CA
	 * bundle, if any, in base64; a new, mutable map
	 */
	public Map<String, Object> conversion() {
		// in the order of apiextensions' WebhookConversion and WebhookClientConfig
		Map<String, Object> clientConfig = new LinkedHashMap<>();
		if (this.service != null) {
			Map<String, Object> service = new LinkedHashMap<>();
			service.put("namespace", this.service.namespace());
			service.put("name", this.service.name());
			if (this.service.path() != null) {
				service.put("path", this.service.path());
			}
			service.put("port", this.service.port());
			clientConfig.put("service", service);
		}
		else {
			clientConfig.put("url", this.url);
		}
		if (this.caBundle != null) {
			clientConfig.put("caBundle", Base64.getEncoder().encodeToString(this.caBundle));
		}
		Map<String, Object> webhook = new LinkedHashMap<>();
		webhook.put("clientConfig", clientConfig);
		// the review versions the webhook reads; v1beta1 went with apiextensions v1beta1
		webhook.put("conversionReviewVersions", new ArrayList<>(List.of("v1")));
		Map<String, Object> conversion = new LinkedHashMap<>();
		conversion.put("strategy", "Webhook");
		conversion.put("webhook", webhook);
		return conversion;
	}

	/**
	 * Return the CA bundle.
	 * @return a copy of the PEM-encoded CA bundle, or {@code null}
	 */
	@Override
	public byte @Nullable [] caBundle() {
		return (this.caBundle != null) ? this.caBundle.clone() : null;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		// a record compares arrays by identity; two configs of equal bundles are equal
		return (other instanceof WebhookClientConfig webhook) && Objects.equals(this.service, webhook.service)
				&& Objects.equals(this.url, webhook.url) && Arrays.equals(this.caBundle, webhook.caBundle);
	}

	@Override
	public int hashCode() {
		return 31 * Objects.hash(this.service, this.url) + Arrays.hashCode(this.caBundle);
	}

	@Override
	public String toString() {
		// what a log line of the registration names: where the API server calls
		if (this.service == null) {
			return String.valueOf(this.url);
		}
		return "service " + this.service.namespace() + "/" + this.service.name() + ":" + this.service.port()
				+ ((this.service.path() != null) ? this.service.path() : "");
	}

	private static void checkUrl(String url) {
		URI uri;
		try {
			uri = URI.create(url);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"The conversion webhook URL " + url + " is not a URL: " + ex.getMessage(), ex);
		}
		// the API server's own checks of a CRD's webhook URL
		if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
			throw new IllegalArgumentException(
					"The conversion webhook URL " + url + " must be https://<host>[:port]/<path>, as the API server "
							+ "calls webhooks over TLS only; inside the cluster, name a Service instead");
		}
		if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
			throw new IllegalArgumentException("The conversion webhook URL " + url
					+ " may have no query, fragment or user info, which the API server refuses");
		}
	}

	/**
	 * A Service in the cluster that serves a webhook.
	 *
	 * @param namespace the Service's namespace
	 * @param name the Service's name
	 * @param path the path of the webhook, such as {@code /convert}, or {@code null} for
	 * the root
	 * @param port the Service's port; the API server's default is 443
	 */
	public record ServiceReference(String namespace, String name, @Nullable String path, int port) {

		/**
		 * Check the port and the path.
		 * @param namespace the Service's namespace
		 * @param name the Service's name
		 * @param path the path of the conversion endpoint
		 * @param port the Service's port
		 * @throws IllegalArgumentException if the port is not 1 to 65535 or the path does
		 * not start with a slash
		 */
		public ServiceReference {
			if (port < 1 || port > 65535) {
				throw new IllegalArgumentException("The conversion webhook's Service port " + port
						+ " is not a port: it must be 1 to 65535 (usually 443)");
			}
			if (path != null && !path.startsWith("/")) {
				throw new IllegalArgumentException(
						"The conversion webhook's path " + path + " must start with a slash, such as /" + path);
			}
		}

	}

}
