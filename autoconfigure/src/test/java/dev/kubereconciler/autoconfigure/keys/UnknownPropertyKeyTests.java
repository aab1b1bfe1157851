package dev.kubereconciler.autoconfigure.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.InvalidPropertyFailureAnalyzer;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.events.KubeReconcilerEventsAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.KubeReconcilerRbacAutoConfiguration;
import dev.kubereconciler.autoconfigure.manifests.RbacProperties;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A key under {@code kube-reconciler.*} that binds to nothing fails startup naming the
 * key and the nearest valid key, at every level of the property tree, whether it comes
 * from YAML or from the command line.
 */
class UnknownPropertyKeyTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerPropertyCheckAutoConfiguration.class,
				KubeReconcilerEventsAutoConfiguration.class, KubeReconcilerRbacAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0))
		.withBean(Mirror.class);

	/**
	 * One misspelled key for each level of the tree, and the key it was meant to be.
	 */
	static Stream<Arguments> misspelledKeys() {
		List<List<String>> cases = List.of(
				List.of("kube-reconciler.shutdown-timout", "5s", "kube-reconciler.shutdown-timeout"),
				List.of("kube-reconciler.auto-start", "false", "kube-reconciler.auto-startup"),
				List.of("kube-reconciler.defaults.max-concurent-reconciles", "2",
						"kube-reconciler.defaults.max-concurrent-reconciles"),
				List.of("kube-reconciler.defualts.resync-period", "1h", "kube-reconciler.defaults.resync-period"),
				List.of("kube-reconciler.defaults.rate-limiter.base-dealy", "1s",
						"kube-reconciler.defaults.rate-limiter.base-delay"),
				List.of("kube-reconciler.defaults.rate-limiter.limiters[0].tpye", "bucket",
						"kube-reconciler.defaults.rate-limiter.limiters[0].type"),
				List.of("kube-reconciler.controllers.configmap-mirror.max-concurent-reconciles", "2",
						"kube-reconciler.controllers.configmap-mirror.max-concurrent-reconciles"),
				List.of("kube-reconciler.controlers.configmap-mirror.max-concurrent-reconciles", "2",
						"kube-reconciler.controllers.configmap-mirror.max-concurrent-reconciles"),
				List.of("kube-reconciler.controllers.configmap-mirror.rate-limiter.qsp", "5",
						"kube-reconciler.controllers.configmap-mirror.rate-limiter.qps"),
				List.of("kube-reconciler.manager.rate-limter.qps", "5", "kube-reconciler.manager.rate-limiter.qps"),
				List.of("kube-reconciler.manager.rate-limiter.qsp", "5", "kube-reconciler.manager.rate-limiter.qps"),
				List.of("kube-reconciler.leader-election.lease-duraton", "20s",
						"kube-reconciler.leader-election.lease-duration"),
				List.of("kube-reconciler.leader-elections.enabled", "true", "kube-reconciler.leader-election.enabled"),
				List.of("kube-reconciler.sharding.partitons", "8", "kube-reconciler.sharding.partitions"),
				List.of("kube-reconciler.metrics.enabeld", "false", "kube-reconciler.metrics.enabled"),
				List.of("kube-reconciler.cache.compacted", "false", "kube-reconciler.cache.compact"),
				List.of("kube-reconciler.events.buffer-capacty", "10", "kube-reconciler.events.buffer-capacity"),
				List.of("kube-reconciler.rbac.rules[0].verb", "get", "kube-reconciler.rbac.rules[0].verbs"),
				List.of("kube-reconciler.deployment.replica", "2", "kube-reconciler.deployment.replicas"));
		return cases.stream()
			.flatMap((c) -> Stream.of(Arguments.of("yaml", c.get(0), c.get(1), c.get(2)),
					Arguments.of("command line", c.get(0), c.get(1), c.get(2))));
	}

	@ParameterizedTest(name = "{1} from {0}")
	@MethodSource("misspelledKeys")
	void misspelledKeyFailsStartupNamingTheNearestValidKey(String from, String key, String value, String nearest) {
		PropertySource<?> source = from.equals("yaml") ? yaml(key, value) : commandLine(key + "=" + value);
		this.contextRunner.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(source))
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidPropertyException ex = findCause(context.getStartupFailure(), InvalidPropertyException.class);
				assertThat(ex.getProperty()).isEqualTo(key);
				assertThat(ex.getValue()).hasToString(value);
				assertThat(ex.getMessage()).contains("'" + key + "'").contains(nearest);
				FailureAnalysis analysis = new InvalidPropertyFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains(key);
				assertThat(analysis.getAction()).contains(nearest);
			});
	}

	@Test
	void everyMisspelledKeyIsNamedAtOnce() {
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(commandLine("kube-reconciler.manager.rate-limiter.qsp=5",
						"kube-reconciler.cache.compacted=false")))
			.run((context) -> {
				InvalidPropertyException ex = findCause(context.getStartupFailure(), InvalidPropertyException.class);
				assertThat(ex.getProperty()).isEqualTo("kube-reconciler.cache.compacted");
				assertThat(ex.getMessage()).contains("kube-reconciler.manager.rate-limiter.qsp")
					.contains("kube-reconciler.manager.rate-limiter.qps")
					.contains("kube-reconciler.cache.compact");
			});
	}

	@Test
	void validKeysAtEveryLevelStartNormally() {
		String yaml = """
				kube-reconciler:
				  shutdownTimeout: 5s
				  defaults:
				    max-concurrent-reconciles: 2
				    rate-limiter:
				      type: max-of
				      limiters:
				        - type: exponential
				          base-delay: 1s
				          max-delay: 10s
				        - type: bucket
				          qps: 5
				          burst: 10
				  controllers:
				    configmap-mirror:
				      maxConcurrentReconciles: 3
				      namespaces: [a, b]
				      rate-limiter:
				        type: bucket
				        qps: 5
				  manager:
				    rate-limiter:
				      qps: 50
				      applies-to: [event, retry]
				  leader-election:
				    lease-duration: 20s
				  sharding:
				    partitions: 8
				  metrics:
				    enabled: false
				  cache:
				    compact: false
				  events:
				    buffer-capacity: 10
				  rbac:
				    rules:
				      - resources: [secrets]
				        verbs: [get]
				  deployment:
				    replicas: 2
				""";
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment().getPropertySources().addFirst(load(yaml)))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(commandLine("kube-reconciler.controllers.configmap-mirror.label-selector=app=web",
						"kube-reconciler.manager.rate-limiter.max-wait=1s",
						"kube-reconciler.leader-election.renew-deadline=8s")))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	// a Service named kube-reconciler gives every pod KUBE_RECONCILER_SERVICE_HOST and
	// its kin, which map to kube-reconciler.* keys that nobody wrote
	// (UnknownEnvironmentVariableTests judges the variables that are checked)
	@Test
	void serviceVariablesAreNotChecked() {
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new SystemEnvironmentPropertySource(
						StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("KUBE_RECONCILER_SERVICE_HOST", "10.0.0.1", "KUBE_RECONCILER_PORT",
								"tcp://10.0.0.1:80"))))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void misspelledCommandLineArgumentFailsARealStartup() {
		InvalidPropertyException ex = runAndFail("--kube-reconciler.auto-startup=false",
				"--kube-reconciler.controllers.configmap-mirror.max-concurent-reconciles=2");
		assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.configmap-mirror.max-concurent-reconciles");
		assertThat(ex.getMessage()).contains("kube-reconciler.controllers.configmap-mirror.max-concurrent-reconciles")
			.contains("commandLineArgs");
	}

	@Test
	void misspelledYamlKeyFailsARealStartup() {
		InvalidPropertyException ex = runAndFail("--spring.config.location=classpath:/unknown-key/application.yml");
		assertThat(ex.getProperty()).isEqualTo("kube-reconciler.manager.rate-limiter.qsp");
		assertThat(ex.getMessage()).contains("kube-reconciler.manager.rate-limiter.qps")
			.contains("unknown-key/application.yml");
	}

	// Spring binds a list whole from the highest-priority source that has it: the
	// leftover rules[1].* of application.yaml bind to nothing, and are no typo
	@Test
	void aProfileThatShortensAListStartsWithTheProfilesList() {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application
			.run("--spring.config.location=classpath:/profile-list/", "--spring.profiles.active=prod")) {
			RbacProperties rbac = context.getBean(RbacProperties.class);
			assertThat(rbac.getRules()).singleElement().satisfies((rule) -> {
				assertThat(rule.getResources()).containsExactly("configmaps");
				assertThat(rule.getVerbs()).containsExactly("get");
			});
		}
	}

	@Test
	void aMisspelledKeyInAShorterListOfAProfileStillFailsStartup() {
		InvalidPropertyException ex = runAndFail("--spring.config.location=classpath:/profile-list/",
				"--spring.profiles.active=prod", "--kube-reconciler.rbac.rules[0].verb=list");
		assertThat(ex.getProperty()).isEqualTo("kube-reconciler.rbac.rules[0].verb");
		assertThat(ex.getMessage()).contains("kube-reconciler.rbac.rules[0].verbs");
	}

	private static InvalidPropertyException runAndFail(String... args) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		Throwable failure = catchThrowable(() -> application.run(args).close());
		assertThat(failure).as("startup failure").isNotNull();
		return findCause(failure, InvalidPropertyException.class);
	}

	// a properties class that the check does not know would have all its keys refused
	@Test
	void theCheckKnowsEveryPropertiesClassUnderKubeReconciler() {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
		Map<String, String> found = new TreeMap<>();
		for (BeanDefinition candidate : scanner.findCandidateComponents("dev.kubereconciler")) {
			Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), null);
			String prefix = type.getAnnotation(ConfigurationProperties.class).value();
			if (prefix.startsWith("kube-reconciler")) {
				found.put(prefix, type.getName());
			}
		}
		Map<String, String> known = new TreeMap<>();
		UnknownPropertyCheck.TREES.forEach((prefix, type) -> known.put(prefix, type.getName()));
		assertThat(known).isEqualTo(found);
	}

	private static PropertySource<?> commandLine(String... keyValues) {
		return new SimpleCommandLinePropertySource(Stream.of(keyValues).map((kv) -> "--" + kv).toArray(String[]::new));
	}

	/**
	 * Nest the dotted key as YAML does, so that the source reads it the way an
	 * application.yml is read.
	 */
	private static PropertySource<?> yaml(String key, String value) {
		StringBuilder yaml = new StringBuilder();
		String[] parts = key.split("\\.");
		String indent = "";
		for (int i = 0; i < parts.length; i++) {
			String part = parts[i];
			boolean item = part.endsWith("[0]");
			String name = item ? part.substring(0, part.length() - 3) : part;
			yaml.append(indent).append(name).append(':');
			if (i == parts.length - 1) {
				yaml.append(' ').append(value).append('\n');
			}
			else {
				yaml.append('\n');
				indent += "  ";
				if (item) {
					yaml.append(indent).append("- ");
					String next = parts[++i];
					yaml.append(next).append(": ").append(value).append('\n');
				}
			}
		}
		return load(yaml.toString());
	}

	private static PropertySource<?> load(String yaml) {
		try {
			return new YamlPropertySourceLoader()
				.load("application.yml", new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)))
				.get(0);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static <E extends Throwable> E findCause(Throwable failure, Class<E> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		throw new AssertionError("No " + type.getName() + " in " + failure);
	}

	static class Mirror {

		@Reconciler(name = "configmap-mirror", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class, KubeReconcilerDefinitionsAutoConfiguration.class,
			KubeReconcilerPropertyCheckAutoConfiguration.class, KubeReconcilerEventsAutoConfiguration.class,
			KubeReconcilerRbacAutoConfiguration.class })
	static class App {

		@Bean
		ApiClient apiClient() {
			return new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0);
		}

		@Bean
		Mirror mirror() {
			return new Mirror();
		}

	}

}
