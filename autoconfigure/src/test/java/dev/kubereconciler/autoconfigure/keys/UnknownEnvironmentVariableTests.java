package dev.kubereconciler.autoconfigure.keys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code KUBERECONCILER_*} environment variables are judged as keys are: a misspelled one
 * fails startup naming the variable and the fix, while the variables Kubernetes injects
 * for Services and other {@code KUBE_RECONCILER_*} variables start normally.
 */
class UnknownEnvironmentVariableTests {

	// a JVM started as a pod starts it: the variable in its real environment
	@Test
	void misspelledVariableFailsAStartupNamingTheVariableAndTheFix() throws Exception {
		ProcessBuilder java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), Main.class.getName())
			.redirectErrorStream(true);
		java.environment().put("KUBERECONCILER_LEADERELECTION_ENABELD", "true");
		Process process = java.start();
		String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor()).as(printed).isNotZero();
		assertThat(printed).contains("APPLICATION FAILED TO START", "Property: KUBERECONCILER_LEADERELECTION_ENABELD",
				"Rename KUBERECONCILER_LEADERELECTION_ENABELD to KUBERECONCILER_LEADERELECTION_ENABLED");
	}

	@Test
	void serviceAndScriptVariablesStartAndAWellSpelledVariableBinds() {
		Map<String, Object> variables = Map.of("KUBERECONCILER_LEADERELECTION_LEASEDURATION", "21s",
				// a Service named kubereconciler, one named kubereconciler-webhook, one
				// named kube-reconciler
				"KUBERECONCILER_SERVICE_HOST", "10.0.0.1", "KUBERECONCILER_PORT", "tcp://10.0.0.1:80",
				"KUBERECONCILER_PORT_80_TCP_ADDR", "10.0.0.1", "KUBERECONCILER_WEBHOOK_SERVICE_PORT_WEBHOOK", "443",
				"KUBE_RECONCILER_SERVICE_PORT", "80", "KUBE_RECONCILER_PORT_80_TCP", "tcp://10.0.0.1:80",
				// this project's build scripts
				"KUBE_RECONCILER_SHARED", "/src/shared");
		try (ConfigurableApplicationContext context = application(variables).run()) {
			assertThat(context.getBean(KubeReconcilerProperties.class).getLeaderElection().getLeaseDuration())
				.hasSeconds(21);
		}
	}

	// what the manifests generator wrote before: Spring binds nothing from it
	@Test
	void aKeyWrittenWithTheDashAsUnderscoreFailsStartupNamingTheVariableSpringReads() {
		Throwable failure = catchThrowable(
				() -> application(Map.of("KUBE_RECONCILER_LEADERELECTION_ENABLED", "true")).run().close());
		InvalidPropertyException ex = findCause(failure);
		assertThat(ex.getProperty()).isEqualTo("KUBE_RECONCILER_LEADERELECTION_ENABLED");
		assertThat(ex.getValue()).isEqualTo("true");
		assertThat(ex.getAction()).isEqualTo("Rename the environment variable KUBE_RECONCILER_LEADERELECTION_ENABLED "
				+ "to KUBERECONCILER_LEADERELECTION_ENABLED (regenerate the manifests if they wrote it).");
	}

	private static SpringApplication application(Map<String, Object> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		SpringApplication application = new SpringApplication(UnknownPropertyKeyTests.App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setEnvironment(environment);
		application.setDefaultProperties(Map.of("kube-reconciler.auto-startup", "false"));
		return application;
	}

	private static InvalidPropertyException findCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidPropertyException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidPropertyException in " + failure, failure);
	}

	/**
	 * The application of the test's own JVM.
	 */
	public static final class Main {

		private Main() {
		}

		public static void main(String[] args) {
			SpringApplication application = new SpringApplication(UnknownPropertyKeyTests.App.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			application.run("--kube-reconciler.auto-startup=false").close();
		}

	}

}
