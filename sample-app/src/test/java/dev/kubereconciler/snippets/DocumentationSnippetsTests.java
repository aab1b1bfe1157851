package dev.kubereconciler.snippets;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.DependentProperties;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.SourceProperties;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.autoconfigure.actuate.ControllersEndpointProperties;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.source.Source;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the docs from rotting: every Java and XML snippet in {@code docs/} must be a
 * verbatim excerpt (indentation aside) of a compiled source of the sample app or of the
 * examples, or of the sample's pom, every YAML snippet must bind without unknown keys and
 * start the auto-configuration, every path in a shell snippet must exist, and
 * {@code docs/configuration.md} must list every property with the default the build's
 * configuration metadata gives.
 */
class DocumentationSnippetsTests {

	private static final List<String> DOCS = List.of("README.md", "docs/configuration.md", "docs/rate-limiting.md",
			"docs/sample-app.md", "docs/metrics.md", "docs/actuator.md", "docs/operators.md", "docs/testing.md",
			"docs/custom-resources.md", "docs/dependents.md", "docs/webhooks.md", "docs/getting-started.md",
			"docs/releasing.md", "docs/multi-cluster.md");

	// examples of what a server answers or a query reads: shown, not run; and Gradle's
	// script, as no Gradle build here could run it (CrdGeneratorMainTests and
	// KubernetesManifestsGeneratorTests call its entry points as it does)
	private static final List<String> OUTPUT_LANGUAGES = List.of("json", "http", "text", "promql", "kotlin");

	private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");

	@Test
	void everySnippetIsInALanguageThatIsChecked() {
		assertThat(snippets()).isNotEmpty()
			.allSatisfy((snippet) -> assertThat(snippet.language()).as(snippet.toString())
				.isIn("java", "xml", "yaml", "sh", "json", "http", "text", "promql", "kotlin"));
		assertThat(snippets()).filteredOn((snippet) -> !OUTPUT_LANGUAGES.contains(snippet.language()))
			.extracting(Snippet::language)
			.contains("java", "xml", "yaml", "sh");
	}

	@ParameterizedTest
	@MethodSource("javaSnippets")
	void javaSnippetIsAnExcerptOfACompiledSource(Snippet snippet) throws IOException {
		List<Path> sources = new ArrayList<>();
		for (String tree : List.of("sample-app/src", "examples")) {
			try (Stream<Path> files = Files.walk(root().resolve(tree))) {
				files.filter((file) -> file.toString().endsWith(".java") && !file.toString().contains("/target/"))
					.forEach(sources::add);
			}
		}
		List<String> wanted = lines(snippet.text());
		boolean found = false;
		for (Path source : sources) {
			found |= Collections.indexOfSubList(lines(Files.readString(source)), wanted) >= 0;
		}
		assertThat(found).as("%s is not an excerpt of any Java file under sample-app/src or examples", snippet)
			.isTrue();
	}

	@ParameterizedTest
	@MethodSource("xmlSnippets")
	void xmlSnippetIsAnExcerptOfTheSamplePom(Snippet snippet) throws IOException {
		List<String> pom = lines(Files.readString(root().resolve("sample-app/pom.xml")));
		// the sample inherits the version of our artifacts from the parent; a snippet
		// names it, and it must be the build's own
		String version = "<version>" + projectVersion() + "</version>";
		List<String> wanted = lines(snippet.text());
		assertThat(wanted).filteredOn((line) -> line.startsWith("<version>"))
			.as("the version %s names", snippet)
			.allMatch(version::equals);
		assertThat(Collections.indexOfSubList(pom,
				wanted.stream().filter((line) -> !line.startsWith("<version>")).toList()))
			.as("%s is not an excerpt of sample-app/pom.xml", snippet)
			.isNotNegative();
	}

	private static String projectVersion() throws IOException {
		String parent = Files.readString(root().resolve("pom.xml"));
		Matcher matcher = Pattern
			.compile("<artifactId>kube-reconciler-parent</artifactId>\\s*<version>([^<]+)</version>")
			.matcher(parent);
		assertThat(matcher.find()).as("the parent pom's version").isTrue();
		return matcher.group(1);
	}

	@ParameterizedTest
	@MethodSource("yamlSnippets")
	void yamlSnippetBindsWithoutUnknownKeys(Snippet snippet) throws IOException {
		// the webhooks' keys bind to a properties class of their own
		List<ConfigurationPropertySource> mainSources = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.from(propertySources(snippet))) {
			mainSources.add(source.filter((name) -> !name.toString().startsWith("kube-reconciler.webhooks")));
		}
		Binder binder = new Binder(mainSources);
		BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
		binder.bind("kube-reconciler", Bindable.ofInstance(new KubeReconcilerProperties()), strict);
		new Binder(ConfigurationPropertySources.from(propertySources(snippet))).bind("kube-reconciler.webhooks",
				Bindable.ofInstance(new WebhookProperties()), strict);
		binder.bind("sample", Bindable.ofInstance(new SampleProperties()), strict);
		// access and cache.time-to-live are Spring Boot's own settings of every endpoint
		List<ConfigurationPropertySource> endpointSources = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.from(propertySources(snippet))) {
			endpointSources.add(source
				.filter((name) -> !name.toString().endsWith(".access") && !name.toString().contains(".cache.")));
		}
		Binder endpoint = new Binder(endpointSources);
		endpoint.bind("management.endpoint.controllers", Bindable.ofInstance(new ControllersEndpointProperties()),
				strict);
	}

	@ParameterizedTest
	@MethodSource("yamlSnippets")
	void yamlSnippetStartsTheAutoConfiguration(Snippet snippet) throws IOException {
		List<PropertySource<?>> sources = propertySources(snippet);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
					KubeReconcilerDefinitionsAutoConfiguration.class))
			.withInitializer((context) -> sources.forEach(context.getEnvironment().getPropertySources()::addFirst))
			// builds every controller, limiter and the gate, but connects to nothing
			.withPropertyValues("kube-reconciler.auto-startup=false")
			.withUserConfiguration(SnippetControllers.class, LimiterCustomizations.class, ReadmeSnippets.class)
			.withBean(ConfigMapAuditor.class)
			.run((context) -> assertThat(context).as(snippet.toString()).hasNotFailed());
	}

	@ParameterizedTest
	@MethodSource("shellSnippets")
	void shellSnippetNamesPathsThatExist(Snippet snippet) {
		// URLs name no file of the repository
		String text = snippet.text().replaceAll("\\S*(://|localhost)\\S*", "");
		Matcher paths = Pattern.compile("(?<![\\w-])(\\.?/?[\\w.-]+(?:/[\\w.-]+)+)").matcher(text);
		while (paths.find()) {
			String path = paths.group(1);
			if (!path.startsWith("/")) {
				assertThat(root().resolve(path)).as("%s names %s", snippet, path).exists();
			}
		}
	}

	@Test
	void imagesThatTheDocsShowExist() throws IOException {
		Pattern image = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)");
		for (String doc : DOCS) {
			Matcher matcher = image.matcher(Files.readString(root().resolve(doc)));
			while (matcher.find()) {
				assertThat(root().resolve(doc).resolveSibling(matcher.group(1))).exists();
			}
		}
	}

	@Test
	void configurationListsEveryPropertyOfTheMetadataWithItsDefault() throws IOException {
		Map<String, String> documented = documentedDefaults();
		JsonObject metadata = metadata();
		List<String> checked = new ArrayList<>();
		for (JsonElement element : metadata.getAsJsonArray("properties")) {
			JsonObject property = element.getAsJsonObject();
			String name = property.get("name").getAsString();
			if (name.equals("kube-reconciler.controllers") || name.equals("kube-reconciler.clusters")) {
				assertThat(documented.keySet()).anyMatch((key) -> key.startsWith(name + ".<name>."));
				continue;
			}
			assertThat(documented).as("docs/configuration.md lists %s", name).containsKey(name);
			if (property.has("defaultValue")) {
				assertThat(documented.get(name)).as("the documented default of %s", name)
					.isEqualTo(normalize(property.get("defaultValue")));
			}
			checked.add(name);
		}
		assertThat(checked).contains("kube-reconciler.defaults.rate-limiter.type",
				"kube-reconciler.manager.rate-limiter.applies-to", "management.endpoint.controllers.show-items");
	}

	@Test
	void configurationListsEveryPerControllerProperty() throws IOException {
		Map<String, String> documented = documentedDefaults();
		for (Field field : ControllerProperties.class.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers())) {
				continue;
			}
			String name = "kube-reconciler.controllers.<name>." + kebab(field.getName());
			if (field.getName().equals("rateLimiter")) {
				name += ".*";
			}
			if (field.getName().equals("sources")) {
				for (Field nested : SourceProperties.class.getDeclaredFields()) {
					String key = name + ".<source>." + kebab(nested.getName());
					assertThat(documented).as("docs/configuration.md lists %s", key).containsKey(key);
				}
				continue;
			}
			if (field.getName().equals("dependents")) {
				for (Field nested : DependentProperties.class.getDeclaredFields()) {
					String key = name + ".<dependent>." + kebab(nested.getName());
					assertThat(documented).as("docs/configuration.md lists %s", key).containsKey(key);
				}
				continue;
			}
			assertThat(documented).as("docs/configuration.md lists %s", name).containsKey(name);
		}
	}

	static Stream<Snippet> javaSnippets() {
		return snippets().stream().filter((snippet) -> snippet.language().equals("java"));
	}

	static Stream<Snippet> xmlSnippets() {
		return snippets().stream().filter((snippet) -> snippet.language().equals("xml"));
	}

	static Stream<Snippet> yamlSnippets() {
		return snippets().stream().filter((snippet) -> snippet.language().equals("yaml"));
	}

	static Stream<Snippet> shellSnippets() {
		return snippets().stream().filter((snippet) -> snippet.language().equals("sh"));
	}

	private static List<Snippet> snippets() {
		List<Snippet> snippets = new ArrayList<>();
		for (String doc : DOCS) {
			List<String> lines;
			try {
				lines = Files.readAllLines(root().resolve(doc));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot read " + doc, ex);
			}
			for (int i = 0; i < lines.size(); i++) {
				// fences may be indented, inside list items
				Matcher open = FENCE.matcher(lines.get(i).strip());
				if (open.matches()) {
					int start = i + 1;
					int end = start;
					while (!lines.get(end).strip().startsWith("```")) {
						end++;
					}
					snippets.add(new Snippet(doc, start, open.group(1), String.join("\n", lines.subList(start, end))));
					i = end;
				}
			}
		}
		return snippets;
	}

	private static List<PropertySource<?>> propertySources(Snippet snippet) throws IOException {
		return new YamlPropertySourceLoader().load(snippet.toString(),
				new ByteArrayResource(snippet.text().getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * The lines of a text with their indentation and trailing blanks removed, so that an
	 * excerpt matches whatever it was nested in.
	 */
	private static List<String> lines(String text) {
		return text.lines().map(String::strip).toList();
	}

	/**
	 * The first two columns of every table row of docs/configuration.md whose first
	 * column is a property name: the property and its documented default, normalized.
	 */
	private static Map<String, String> documentedDefaults() throws IOException {
		Map<String, String> defaults = new LinkedHashMap<>();
		for (String line : Files.readAllLines(root().resolve("docs/configuration.md"))) {
			if (line.startsWith("| `")) {
				String[] cells = line.split("\\|");
				String value = cells[2].strip().replace("`", "").toLowerCase(Locale.ROOT);
				defaults.put(cells[1].strip().replace("`", ""), value);
			}
		}
		return defaults;
	}

	private static String normalize(JsonElement value) {
		if (value.isJsonArray()) {
			List<String> items = new ArrayList<>();
			value.getAsJsonArray().forEach((item) -> items.add(normalize(item)));
			return String.join(", ", items);
		}
		if (value.getAsJsonPrimitive().isNumber()) {
			double number = value.getAsDouble();
			return (number == Math.rint(number)) ? String.valueOf((long) number) : String.valueOf(number);
		}
		return value.getAsString().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	private static JsonObject metadata() throws IOException {
		ClassLoader classLoader = DocumentationSnippetsTests.class.getClassLoader();
		List<URL> candidates = Collections
			.list(classLoader.getResources("META-INF/spring-configuration-metadata.json"));
		for (URL url : candidates) {
			try (Reader reader = new InputStreamReader(url.openStream(), StandardCharsets.UTF_8)) {
				JsonObject metadata = JsonParser.parseReader(reader).getAsJsonObject();
				if (metadata.toString().contains("\"kube-reconciler.enabled\"")) {
					return metadata;
				}
			}
		}
		throw new IllegalStateException("No kube-reconciler configuration metadata among " + candidates);
	}

	private static String kebab(String camel) {
		return camel.chars()
			.mapToObj((c) -> Character.isUpperCase(c) ? "-" + Character.toString(Character.toLowerCase(c))
					: Character.toString(c))
			.collect(Collectors.joining());
	}

	private static Path root() {
		// Maven runs a module's tests in the module's folder; the docs are in the
		// checkout's
		for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
			if (Files.isDirectory(folder.resolve("docs")) && Files.isRegularFile(folder.resolve("CONTRIBUTING.md"))) {
				return folder;
			}
		}
		throw new IllegalStateException("No docs/ in " + Path.of("").toAbsolutePath() + " or a folder above it");
	}

	/**
	 * A fenced code block of a doc.
	 *
	 * @param doc the doc's path from the repository root
	 * @param line the block's first line, from 0
	 * @param language the fence's language
	 * @param text the block's text
	 */
	record Snippet(String doc, int line, String language, String text) {

		@Override
		public String toString() {
			return this.doc + ":" + (this.line + 1) + " (" + this.language + ")";
		}

	}

	/**
	 * Stand-ins for the controllers and beans that the YAML snippets name.
	 */
	@Configuration(proxyBeanMethods = false)
	static class SnippetControllers {

		@Bean
		ApiClient apiClient() {
			ApiClient client = new ApiClient();
			client.setBasePath("https://127.0.0.1:1");
			client.setReadTimeout(0);
			return client;
		}

		@Bean
		RateLimiter<Request> widgetRateLimiter() {
			return RateLimiters.controllerDefault();
		}

		@Bean
		Source externalWidgets() {
			return Source.perObject("external-widgets", Widget.class, Duration.ofSeconds(30), (widget) -> null);
		}

		@Bean
		Stubs stubs() {
			return new Stubs();
		}

		@Bean
		Dependent<V1ConfigMap, V1Deployment> webDeployment() {
			return Dependent.<V1ConfigMap, V1Deployment>of("deployment", V1Deployment.class,
					(primary, context) -> new V1Deployment().metadata(new V1ObjectMeta().name("web")));
		}

		@Bean
		Dependent<V1ConfigMap, V1Deployment> webCache() {
			return Dependent.<V1ConfigMap, V1Deployment>of("cache", V1Deployment.class,
					(primary, context) -> new V1Deployment().metadata(new V1ObjectMeta().name("web-cache")));
		}

	}

	static class Stubs {

		@Reconciler(name = "configmap-mirror", watches = V1ConfigMap.class, labelSelector = "mirror=true")
		Result mirror(Request request) {
			return Result.done();
		}

		@Reconciler(name = "widget", watches = Widget.class, rateLimiter = "widgetRateLimiter",
				sources = "externalWidgets")
		Result widget(Request request) {
			return Result.done();
		}

		@Reconciler(name = "web", watches = V1ConfigMap.class, dependents = { "webDeployment", "webCache" })
		Result web(Request request) {
			return Result.done();
		}

	}

}
