package dev.kubereconciler.webhook.registration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.AdmissionregistrationV1ServiceReference;
import io.kubernetes.client.openapi.models.AdmissionregistrationV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1MutatingWebhook;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RuleWithOperations;
import io.kubernetes.client.openapi.models.V1ValidatingWebhook;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.webhook.Webhooks;
import dev.kubereconciler.webhook.admission.AdmissionWebhook;

/**
 * The {@code ValidatingWebhookConfiguration} and {@code MutatingWebhookConfiguration} of
 * an application's {@link Webhooks}, as client-java models: for the generated manifests,
 * with a Service, and for an application that registers its own webhooks in development,
 * with a URL and the CA of its self-signed certificate.
 *
 * <p>
 * Every webhook declares {@code sideEffects: None}, so that the API server calls it on
 * dry runs too, {@code matchPolicy: Equivalent}, so that a request to another version of
 * the type is converted and sent, and {@code admissionReviewVersions: [v1]}.
 *
 * @param name the configurations' name, usually the application's
 * @param client how the API server reaches the webhook server
 * @param failurePolicy {@code Fail} or {@code Ignore}: what the API server does when the
 * webhook cannot be reached or answers with an error
 * @param timeout how long the API server waits for an answer, between 1 and 30 seconds
 * @param namespaceSelector the namespaces whose objects are sent, or {@code null} for all
 * @param labels labels of the configurations
 */
public record WebhookConfigurations(String name, WebhookClientConfig client, String failurePolicy, Duration timeout,
		@Nullable V1LabelSelector namespaceSelector, Map<String, String> labels) {

	public WebhookConfigurations {
		if (!"Fail".equals(failurePolicy) && !"Ignore".equals(failurePolicy)) {
			throw new IllegalArgumentException("failurePolicy must be Fail or Ignore, not " + failurePolicy);
		}
		if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofSeconds(30)) > 0) {
			throw new IllegalArgumentException("The webhook timeout must be between 1s and 30s, not " + timeout);
		}
		labels = Map.copyOf(labels);
	}

	/**
	 * Return the validating configuration.
	 * @param webhooks the webhooks
	 * @return the configuration, or {@code null} when there is no validator
	 */
	public @Nullable V1ValidatingWebhookConfiguration validating(Webhooks webhooks) {
		List<V1ValidatingWebhook> entries = new ArrayList<>();
		for (AdmissionWebhook webhook : webhooks.admissionWebhooks()) {
			if (!webhook.mutating()) {
				entries.add(new V1ValidatingWebhook().name(webhook.name())
					.clientConfig(clientConfig(webhook))
					.rules(List.of(rule(webhook)))
					.failurePolicy(this.failurePolicy)
					.matchPolicy("Equivalent")
					.sideEffects("None")
					.timeoutSeconds((int) this.timeout.toSeconds())
					.namespaceSelector(this.namespaceSelector)
					.admissionReviewVersions(List.of("v1")));
			}
		}
		if (entries.isEmpty()) {
			return null;
		}
		return new V1ValidatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
			.kind("ValidatingWebhookConfiguration")
			.metadata(metadata())
			.webhooks(entries);
	}

	/**
	 * Return the mutating configuration.
	 * @param webhooks the webhooks
	 * @return the configuration, or {@code null} when there is no defaulter
	 */
	public @Nullable V1MutatingWebhookConfiguration mutating(Webhooks webhooks) {
		List<V1MutatingWebhook> entries = new ArrayList<>();
		for (AdmissionWebhook webhook : webhooks.admissionWebhooks()) {
			if (webhook.mutating()) {
				entries.add(new V1MutatingWebhook().name(webhook.name())
					.clientConfig(clientConfig(webhook))
					.rules(List.of(rule(webhook)))
					.failurePolicy(this.failurePolicy)
					.matchPolicy("Equivalent")
					.sideEffects("None")
					// a later mutating webhook may undo a default: call this one again
					// then
					.reinvocationPolicy("IfNeeded")
					.timeoutSeconds((int) this.timeout.toSeconds())
					.namespaceSelector(this.namespaceSelector)
					.admissionReviewVersions(List.of("v1")));
			}
		}
		if (entries.isEmpty()) {
			return null;
		}
		return new V1MutatingWebhookConfiguration().apiVersion("admissionregistration.k8s.io/v1")
			.kind("MutatingWebhookConfiguration")
			.metadata(metadata())
			.webhooks(entries);
	}

	private AdmissionregistrationV1WebhookClientConfig clientConfig(AdmissionWebhook webhook) {
		WebhookClientConfig config = this.client.withPath(webhook.path());
		WebhookClientConfig.ServiceReference service = config.service();
		AdmissionregistrationV1WebhookClientConfig clientConfig = new AdmissionregistrationV1WebhookClientConfig()
			.caBundle(config.caBundle());
		if (service == null) {
			return clientConfig.url(config.url());
		}
		return clientConfig.service(new AdmissionregistrationV1ServiceReference().namespace(service.namespace())
			.name(service.name())
			.port(service.port())
			.path(service.path()));
	}

	private V1ObjectMeta metadata() {
		return new V1ObjectMeta().name(this.name).labels(this.labels.isEmpty() ? null : this.labels);
	}

	private static V1RuleWithOperations rule(AdmissionWebhook webhook) {
		return new V1RuleWithOperations().apiGroups(List.of(webhook.type().group()))
			.apiVersions(List.of(webhook.type().version()))
			.resources(List.of(webhook.type().plural()))
			.operations(webhook.operations().stream().map(Enum::name).sorted().toList())
			// the server's default, written out: the rules are one atomic list, which a
			// client-side kubectl apply would otherwise find changed on every run
			.scope("*");
	}

}
