package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link EnvironmentBinding}, over configuration metadata written as Spring
 * Boot's annotation processor writes it.
 */
class EnvironmentBindingTests {

	@TempDir
	Path classes;

	EnvironmentBinding binding;

	@BeforeEach
	void writeMetadata() throws IOException {
		Path metadata = Files.createDirectories(this.classes.resolve("META-INF"))
			.resolve("spring-configuration-metadata.json");
		Files.writeString(metadata, """
				{"groups": [], "properties": [
				  {"name": "kube-reconciler.leader-election.enabled", "type": "java.lang.Boolean"},
				  {"name": "kube-reconciler.shutdown-timeout", "type": "java.time.Duration"},
				  {"name": "kube-reconciler.rbac.rules", "type": "java.util.List<%1$s>"},
				  {"name": "kube-reconciler.webhooks.namespace-selector",
				   "type": "java.util.Map<java.lang.String,java.lang.String>"},
				  {"name": "spring.ssl.bundle.pem", "type": "java.util.Map<java.lang.String,%2$s>"}
				]}
				""".formatted(Rule.class.getName(), Bundle.class.getName()));
		this.binding = EnvironmentBinding.of(new URLClassLoader(new URL[] { this.classes.toUri().toURL() },
				EnvironmentBindingTests.class.getClassLoader()));
	}

	@Test
	void variablesNamedAsSpringBindsThemPass() {
		Map<String, String> environment = new LinkedHashMap<>();
		environment.put("KUBERECONCILER_LEADERELECTION_ENABLED", "true");
		environment.put("KUBERECONCILER_SHUTDOWNTIMEOUT", "PT30S");
		environment.put("KUBERECONCILER_RBAC_RULES_0_VERBS_0", "get");
		environment.put("KUBERECONCILER_WEBHOOKS_NAMESPACESELECTOR_TEAM", "a");
		environment.put("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_PRIVATEKEY", "file:/certs/tls.key");
		environment.put("SPRING_SSL_BUNDLE_PEM_WEBHOOK_RELOADONUPDATE", "true");
		// the JVM's and the cluster's own, which look like no property
		environment.put("JAVA_TOOL_OPTIONS", "-Xmx1g");
		environment.put("KUBERNETES_SERVICE_HOST", "10.0.0.1");
		assertThat(this.binding.unbound(environment)).isEmpty();
	}

	@Test
	void theNamesTheGeneratorWroteBeforeTheFieldDefectsFixAreRefusedWithTheVariableThatWorks() {
		Map<String, String> environment = new LinkedHashMap<>();
		environment.put("KUBE_RECONCILER_LEADERELECTION_ENABLED", "true");
		environment.put("KUBERECONCILER_SHUTDOWNTIMEOUT", "PT30S");
		environment.put("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_PRIVATE_KEY", "file:/certs/tls.key");
		assertThatIllegalStateException().isThrownBy(() -> this.binding.check("operator", environment))
			.withMessageContaining("The container operator has environment variables that bind to no property")
			.withMessageContaining("KUBE_RECONCILER_LEADERELECTION_ENABLED is read as "
					+ "'kube.reconciler.leaderelection.enabled', which no property names; the property "
					+ "'kube-reconciler.leader-election.enabled' is read from KUBERECONCILER_LEADERELECTION_ENABLED")
			.withMessageContaining("SPRING_SSL_BUNDLE_PEM_WEBHOOK_KEYSTORE_PRIVATE_KEY is read as "
					+ "'spring.ssl.bundle.pem.webhook.keystore.private.key', which no property names")
			.withMessageNotContaining("SHUTDOWNTIMEOUT");
	}

	public static class Bundle {

		public Store getKeystore() {
			return new Store();
		}

		public boolean isReloadOnUpdate() {
			return false;
		}

	}

	public static class Store {

		public String getCertificate() {
			return "";
		}

		public String getPrivateKey() {
			return "";
		}

	}

	public static class Rule {

		public java.util.List<String> getVerbs() {
			return java.util.List.of();
		}

	}

}
