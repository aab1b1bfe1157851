package dev.kubereconciler.reliability;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Scenario 7: every invalid property fails startup, and what Spring Boot prints names the
 * property, its value and the fix, one case at a time. Nothing reaches an API server.
 */
@ExtendWith(OutputCaptureExtension.class)
class BadInputTests {

	private static final Map<String, Object> FIGURES = new LinkedHashMap<>();

	static Stream<Arguments> invalidProperties() {
		return Stream.of(
				arguments("zero qps", "kube-reconciler.defaults.rate-limiter.qps=0",
						"kube-reconciler.defaults.rate-limiter.qps", "0.0"),
				arguments("negative qps", "kube-reconciler.controllers.mirror.rate-limiter.qps=-5",
						"kube-reconciler.controllers.mirror.rate-limiter.qps", "-5.0"),
				arguments("zero manager qps", "kube-reconciler.manager.rate-limiter.qps=0",
						"kube-reconciler.manager.rate-limiter.qps", "0.0"),
				arguments("burst 0", "kube-reconciler.defaults.rate-limiter.burst=0",
						"kube-reconciler.defaults.rate-limiter.burst", "0"),
				arguments("base delay above max delay", "kube-reconciler.defaults.rate-limiter.base-delay=30m",
						"kube-reconciler.defaults.rate-limiter.base-delay", "30m"),
				arguments("malformed duration", "kube-reconciler.defaults.reconcile-timeout=ten seconds",
						"kube-reconciler.defaults.reconcile-timeout", "\"ten seconds\""),
				arguments("bad label selector", "kube-reconciler.controllers.mirror.label-selector=tier in (web",
						"kube-reconciler.controllers.mirror.label-selector", "tier in (web"),
				arguments("unknown controller name", "kube-reconciler.controllers.miror.max-concurrent-reconciles=2",
						"kube-reconciler.controllers.miror", "miror"),
				arguments("unknown limiter type", "kube-reconciler.defaults.rate-limiter.type=leaky-bucket",
						"kube-reconciler.defaults.rate-limiter.type", "leaky-bucket"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidProperties")
	void invalidPropertyFailsStartupNamingIt(String description, String property, String name, String value,
			CapturedOutput output) {
		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("kube-reconciler.auto-startup=false", property)
			.run());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: " + name)
			.contains("Value: " + value)
			.contains("Action:");
		String action = output.getOut().substring(output.getOut().lastIndexOf("Action:"));
		String fix = action.lines().skip(1).filter((line) -> !line.isBlank()).findFirst().orElse(null);
		assertThat(fix).isNotNull();
		FIGURES.put(description, "`" + property + "` fails startup: \"" + fix.strip() + "\"");
	}

	@AfterAll
	static void report() {
		Reliability.report("7-bad-input", "7. Bad input", FIGURES);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeReconcilerAutoConfiguration.class)
	static class Application {

		@Bean
		Mirror mirror() {
			return new Mirror();
		}

	}

	static class Mirror {

		@Reconciler(name = "mirror", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

}
