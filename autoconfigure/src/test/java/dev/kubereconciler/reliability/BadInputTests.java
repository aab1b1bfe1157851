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

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
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

	/**
	 * Each case: a description, the properties (separated by {@code "; "}), the property
	 * the analysis must name, its value as printed, and a part of the fix it must print.
	 */
	static Stream<Arguments> invalidProperties() {
		return Stream.of(
				arguments("zero qps", "kube-reconciler.defaults.rate-limiter.qps=0",
						"kube-reconciler.defaults.rate-limiter.qps", "0.0", "to a positive number"),
				arguments("negative qps", "kube-reconciler.controllers.mirror.rate-limiter.qps=-5",
						"kube-reconciler.controllers.mirror.rate-limiter.qps", "-5.0", "to a positive number"),
				arguments("zero manager qps", "kube-reconciler.manager.rate-limiter.qps=0",
						"kube-reconciler.manager.rate-limiter.qps", "0.0", "to a positive number"),
				arguments("burst 0", "kube-reconciler.defaults.rate-limiter.burst=0",
						"kube-reconciler.defaults.rate-limiter.burst", "0", "to 1 or more"),
				arguments("manager burst 0", "kube-reconciler.manager.rate-limiter.burst=0",
						"kube-reconciler.manager.rate-limiter.burst", "0", "to 1 or more"),
				arguments("manager burst 0 with a qps",
						"kube-reconciler.manager.rate-limiter.qps=5; kube-reconciler.manager.rate-limiter.burst=0",
						"kube-reconciler.manager.rate-limiter.burst", "0", "to 1 or more"),
				arguments("negative manager max wait", "kube-reconciler.manager.rate-limiter.max-wait=-1s",
						"kube-reconciler.manager.rate-limiter.max-wait", "-1s", "positive duration"),
				arguments("unknown manager cause", "kube-reconciler.manager.rate-limiter.applies-to=foo",
						"kube-reconciler.manager.rate-limiter.applies-to", "\"foo\"", "event, retry, requeue-after"),
				arguments("negative shutdown timeout", "kube-reconciler.shutdown-timeout=-5s",
						"kube-reconciler.shutdown-timeout", "-5s", "0 or a positive duration"),
				arguments("not a boolean", "kube-reconciler.auto-startup=maybe", "kube-reconciler.auto-startup",
						"\"maybe\"", "true or false"),
				arguments("metrics not a boolean", "kube-reconciler.metrics.enabled=yes please",
						"kube-reconciler.metrics.enabled", "\"yes please\"", "true or false"),
				arguments("base delay above max delay", "kube-reconciler.defaults.rate-limiter.base-delay=30m",
						"kube-reconciler.defaults.rate-limiter.base-delay", "30m", "at most"),
				arguments("zero max delay", "kube-reconciler.defaults.rate-limiter.max-delay=0",
						"kube-reconciler.defaults.rate-limiter.max-delay", "0s", "positive duration"),
				arguments("fast-slow without a fast delay",
						"kube-reconciler.defaults.rate-limiter.type=fast-slow; "
								+ "kube-reconciler.defaults.rate-limiter.slow-delay=1m; "
								+ "kube-reconciler.defaults.rate-limiter.max-fast-attempts=3",
						"kube-reconciler.defaults.rate-limiter.fast-delay", "null", "Set kube-reconciler"),
				arguments("max-of without children", "kube-reconciler.defaults.rate-limiter.type=max-of",
						"kube-reconciler.defaults.rate-limiter.limiters", "[]", "List the limiters"),
				arguments("unknown child limiter type",
						"kube-reconciler.defaults.rate-limiter.type=max-of; "
								+ "kube-reconciler.defaults.rate-limiter.limiters[0].type=leaky",
						"kube-reconciler.defaults.rate-limiter.limiters[0].type", "\"leaky\"", "fast-slow"),
				arguments("field the limiter type does not use",
						"kube-reconciler.defaults.rate-limiter.type=bucket; "
								+ "kube-reconciler.defaults.rate-limiter.base-delay=1s",
						"kube-reconciler.defaults.rate-limiter.base-delay", "1s", "default, exponential"),
				arguments("child limiters of a leaf type",
						"kube-reconciler.controllers.mirror.rate-limiter.type=none; "
								+ "kube-reconciler.controllers.mirror.rate-limiter.limiters[0].type=bucket",
						"kube-reconciler.controllers.mirror.rate-limiter.limiters", "1 limiters", "max-of, max-wait"),
				arguments("unknown limiter bean", "kube-reconciler.defaults.rate-limiter.bean=nope",
						"kube-reconciler.defaults.rate-limiter.bean", "nope", "named 'nope'"),
				arguments("malformed duration", "kube-reconciler.defaults.reconcile-timeout=ten seconds",
						"kube-reconciler.defaults.reconcile-timeout", "\"ten seconds\"", "as a duration"),
				arguments("negative default reconcile timeout", "kube-reconciler.defaults.reconcile-timeout=-1s",
						"kube-reconciler.defaults.reconcile-timeout", "-1s", "0 or a positive duration"),
				arguments("zero cache sync timeout", "kube-reconciler.controllers.mirror.cache-sync-timeout=0",
						"kube-reconciler.controllers.mirror.cache-sync-timeout", "0s", "positive duration"),
				arguments("resync period beyond a timer", "kube-reconciler.defaults.resync-period=999999999d",
						"kube-reconciler.defaults.resync-period", "999999999d", "at most 292 years"),
				arguments("zero workers", "kube-reconciler.controllers.mirror.max-concurrent-reconciles=0",
						"kube-reconciler.controllers.mirror.max-concurrent-reconciles", "0", "to 1 or more"),
				arguments("bad namespace", "kube-reconciler.controllers.mirror.namespaces=Bad_NS!",
						"kube-reconciler.controllers.mirror.namespaces", "Bad_NS!", "name of a namespace"),
				arguments("bad label selector", "kube-reconciler.controllers.mirror.label-selector=tier in (web",
						"kube-reconciler.controllers.mirror.label-selector", "tier in (web", "kubectl -l"),
				arguments("unknown controller name", "kube-reconciler.controllers.miror.max-concurrent-reconciles=2",
						"kube-reconciler.controllers.miror", "miror", "(mirror)"),
				arguments("controller enabled not a boolean", "kube-reconciler.controllers.mirror.enabled=off-ish",
						"kube-reconciler.controllers.mirror.enabled", "\"off-ish\"", "true or false"),
				arguments("unknown limiter type", "kube-reconciler.defaults.rate-limiter.type=leaky-bucket",
						"kube-reconciler.defaults.rate-limiter.type", "\"leaky-bucket\"",
						"default, exponential, bucket, fast-slow, max-of, max-wait, none, bean"),
				arguments("bad lease name",
						"kube-reconciler.leader-election.enabled=true; "
								+ "kube-reconciler.leader-election.lease-name=My_Lease",
						"kube-reconciler.leader-election.lease-name", "My_Lease", "valid Lease name"),
				arguments("bad lease namespace",
						"kube-reconciler.leader-election.enabled=true; "
								+ "kube-reconciler.leader-election.lease-namespace=Ops Team",
						"kube-reconciler.leader-election.lease-namespace", "Ops Team", "namespace the Lease"),
				arguments("zero lease duration",
						"kube-reconciler.leader-election.enabled=true; "
								+ "kube-reconciler.leader-election.lease-duration=0",
						"kube-reconciler.leader-election.lease-duration", "0s", "positive duration"),
				arguments("renew deadline not below lease duration",
						"kube-reconciler.leader-election.enabled=true; "
								+ "kube-reconciler.leader-election.renew-deadline=20s",
						"kube-reconciler.leader-election.renew-deadline", "20s", "retry-period < renew-deadline"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidProperties")
	void invalidPropertyFailsStartupNamingIt(String description, String properties, String name, String value,
			String fixPart, CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
				.properties("kube-reconciler.auto-startup=false")
				.properties(properties.split("; "))
				.run());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: " + name + "\n")
			.contains("Value: " + value + "\n")
			.contains("Action:");
		String action = output.getOut().substring(output.getOut().lastIndexOf("Action:"));
		String fix = action.lines().skip(1).filter((line) -> !line.isBlank()).findFirst().orElse(null);
		assertThat(fix).isNotNull().contains(fixPart);
		FIGURES.put(description, "`" + properties + "` fails startup: \"" + fix.strip() + "\"");
	}

	@AfterAll
	static void report() {
		Reliability.report("7-bad-input", "7. Bad input", FIGURES);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class,
			KubeReconcilerDefinitionsAutoConfiguration.class })
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
