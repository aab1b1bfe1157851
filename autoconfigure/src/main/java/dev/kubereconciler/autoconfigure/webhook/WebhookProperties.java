package dev.kubereconciler.autoconfigure.webhook;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the admission and conversion webhooks an application serves.
 */
@ConfigurationProperties("kube-reconciler.webhooks")
public class WebhookProperties {

	/**
	 * Whether to serve the application's AdmissionValidator, AdmissionDefaulter and
	 * VersionConverter beans. With none of them, nothing is served either way.
	 */
	private boolean enabled = true;

	/**
	 * The HTTPS port of the webhook server, apart from the application's HTTP and
	 * management ports; 0 chooses a free one.
	 */
	private int port = 9443;

	/**
	 * The address the webhook server binds; every interface when not set.
	 */
	private @Nullable InetAddress address;

	/**
	 * The name of the Spring SSL bundle (spring.ssl.bundle.*) whose key and certificate
	 * the webhook server presents, reloaded when its files change if the bundle says
	 * reload-on-update. When not set, a self-signed CA and certificate are generated at
	 * startup, for development and tests.
	 */
	private @Nullable String sslBundle;

	/**
	 * The number of threads that answer webhook requests.
	 */
	private int threads = 8;

	/**
	 * Whether the application applies its own ValidatingWebhookConfiguration and
	 * MutatingWebhookConfiguration, and sets the conversion webhook of the CRDs it
	 * converts, pointing the API server at the URL with the CA of the running server; the
	 * configurations are deleted when it stops. For development and tests; in a cluster,
	 * the generated manifests and cert-manager do this.
	 */
	private boolean register;

	/**
	 * The base URL the API server reaches the webhook server at when the application
	 * registers its webhooks. Default: https://127.0.0.1 and the server's port.
	 */
	private @Nullable String url;

	/**
	 * The name of the webhook configurations. Default: spring.application.name, or
	 * kube-reconciler.
	 */
	private @Nullable String configurationName;

	/**
	 * What the API server does when a webhook cannot be reached or fails: 'fail' refuses
	 * the request, 'ignore' lets it through unjudged.
	 */
	private FailurePolicy failurePolicy = FailurePolicy.FAIL;

	/**
	 * How long the API server waits for a webhook's answer, from 1 to 30 seconds.
	 */
	private Duration timeout = Duration.ofSeconds(10);

	/**
	 * Labels a namespace must carry for its objects to be sent to the webhooks; every
	 * namespace when empty.
	 */
	private Map<String, String> namespaceSelector = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public @Nullable InetAddress getAddress() {
		return this.address;
	}

	public void setAddress(@Nullable InetAddress address) {
		this.address = address;
	}

	public @Nullable String getSslBundle() {
		return this.sslBundle;
	}

	public void setSslBundle(@Nullable String sslBundle) {
		this.sslBundle = sslBundle;
	}

	public int getThreads() {
		return this.threads;
	}

	public void setThreads(int threads) {
		this.threads = threads;
	}

	public boolean isRegister() {
		return this.register;
	}

	public void setRegister(boolean register) {
		this.register = register;
	}

	public @Nullable String getUrl() {
		return this.url;
	}

	public void setUrl(@Nullable String url) {
		this.url = url;
	}

	public @Nullable String getConfigurationName() {
		return this.configurationName;
	}

	public void setConfigurationName(@Nullable String configurationName) {
		this.configurationName = configurationName;
	}

	public FailurePolicy getFailurePolicy() {
		return this.failurePolicy;
	}

	public void setFailurePolicy(FailurePolicy failurePolicy) {
		this.failurePolicy = failurePolicy;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public Map<String, String> getNamespaceSelector() {
		return this.namespaceSelector;
	}

	public void setNamespaceSelector(Map<String, String> namespaceSelector) {
		this.namespaceSelector = namespaceSelector;
	}

	/**
	 * What the API server does when a webhook cannot be reached or fails.
	 */
	public enum FailurePolicy {

		/** Refuse the request. */
		FAIL("Fail"),

		/** Let the request through, unjudged. */
		IGNORE("Ignore");

		private final String value;

		FailurePolicy(String value) {
			this.value = value;
		}

		/**
		 * Return the policy as a webhook configuration writes it.
		 * @return {@code Fail} or {@code Ignore}
		 */
		public String value() {
			return this.value;
		}

	}

}
