package dev.kubereconciler.autoconfigure.webhook;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AdmissionregistrationV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that registered its webhooks withdraws them when it stops; when the API
 * server is already gone, as the local one of {@code ./dev run} is on Ctrl-C, it says so
 * in one line, with no stack trace.
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class WebhookWithdrawalTests {

	private static final String NAME = "withdrawal-test";

	@Test
	void anApiServerAlreadyGoneAtShutdownIsReportedInOneQuietLine(CapturedOutput output) throws ApiException {
		ApiClient client = KubernetesTestServer.shared().apiClient();
		String server = client.getBasePath();
		try {
			contextRunner(client).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(new AdmissionregistrationV1Api(client).readValidatingWebhookConfiguration(NAME).execute())
					.isNotNull();
				// the API server stops before the application, as on Ctrl-C
				client.setBasePath("https://127.0.0.1:1");
			});
			assertThat(output)
				.contains("The API server does not answer, so the webhook configurations '" + NAME
						+ "' stay registered until it comes back; delete them with: kubectl delete "
						+ "validatingwebhookconfiguration,mutatingwebhookconfiguration " + NAME)
				.doesNotContain("Could not delete the webhook configurations")
				.doesNotContain("java.net.ConnectException");
		}
		finally {
			client.setBasePath(server);
			AdmissionregistrationV1Api api = new AdmissionregistrationV1Api(client);
			api.deleteValidatingWebhookConfiguration(NAME).execute();
			api.deleteMutatingWebhookConfiguration(NAME).execute();
		}
	}

	@Test
	void aRunningApiServerHasTheConfigurationsDeleted(CapturedOutput output) throws ApiException {
		ApiClient client = KubernetesTestServer.shared().apiClient();
		contextRunner(client).run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("does not answer");
		assertThat(new AdmissionregistrationV1Api(client).listValidatingWebhookConfiguration()
			.fieldSelector("metadata.name=" + NAME)
			.execute()
			.getItems()).isEmpty();
	}

	// the webhooks judge no namespace of the other tests: the selector matches none
	private static ApplicationContextRunner contextRunner(ApiClient client) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
					KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerWebhookAutoConfiguration.class))
			.withPropertyValues("kube-reconciler.webhooks.port=0", "kube-reconciler.webhooks.register=true",
					"kube-reconciler.webhooks.configuration-name=" + NAME,
					"kube-reconciler.webhooks.namespace-selector." + NAME + "=none")
			.withBean(ApiClient.class, () -> client)
			.withUserConfiguration(KubeReconcilerWebhookAutoConfigurationTests.WebhookBeans.class);
	}

}
