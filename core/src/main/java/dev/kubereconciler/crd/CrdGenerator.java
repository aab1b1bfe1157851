package dev.kubereconciler.crd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.kubereconciler.model.Categories;
import dev.kubereconciler.model.Default;
import dev.kubereconciler.model.Description;
import dev.kubereconciler.model.PreserveUnknownFields;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ScaleSubresource;
import dev.kubereconciler.model.ShortNames;
import dev.kubereconciler.model.StorageVersion;
import dev.kubereconciler.model.ValidationRule;

/**
 * Writes the {@code apiextensions.k8s.io/v1} CustomResourceDefinition of a custom
 * resource model class, with a structural schema generated from the class, so that the
 * CRD cannot drift from the model that reads it.
 *
 * <p>
 * <b>What it reads.</b> The model class carries {@link ResourceCoordinates} (group,
 * version, kind, plural, scope) and has fields named {@code spec} and {@code status},
 * declared in the class or in a superclass: a generic base such as
 * {@code CustomResource<S, T>} works, its type arguments resolved from the model class.
 * The other fields of the model's hierarchy ({@code apiVersion}, {@code kind},
 * {@code metadata}) are the API server's. Spec and status may be classes or records;
 * their fields are named by Gson's {@code @SerializedName} as client-java reads them, or
 * by the field name.
 *
 * <p>
 * <b>The schema.</b> Objects, lists and sets ({@code type: array}; a set of scalars is an
 * {@code x-kubernetes-list-type: set}), maps with string keys
 * ({@code additionalProperties}), enums (their {@code @SerializedName} values or names),
 * integers and numbers with their formats ({@code int32}, {@code int64}, {@code float},
 * {@code double}), {@code OffsetDateTime} as {@code date-time}, {@code LocalDate} as
 * {@code date}, {@code byte[]} as a {@code byte} string (client-java writes it in
 * base64), and client-java's {@code Quantity} and {@code IntOrString} as
 * {@code x-kubernetes-int-or-string}. {@code Object}, a map of {@code Object}s and Gson's
 * {@code JsonElement}s keep whatever JSON they hold
 * ({@code x-kubernetes-preserve-unknown-fields}), as their values have no schema and the
 * server would otherwise prune them. A field of a JDK type that client-java's JSON cannot
 * read or write, such as {@code Optional}, {@code Instant} or {@code Duration}, is
 * refused with the field and the type to declare instead. Jakarta Bean Validation:
 * {@code @NotNull} makes a field required, {@code @Min}, {@code @Max}, {@code @Size} and
 * {@code @Pattern} (and {@code @Positive}, {@code @NotBlank} and the other constraints
 * victools' module knows) become the schema's bounds. This package's annotations add
 * {@link Description descriptions}, {@link Default defaults}, {@link ValidationRule CEL
 * rules} ({@code x-kubernetes-validations}) and {@link PreserveUnknownFields
 * x-kubernetes-preserve-unknown-fields}; a field whose type gives no schema is refused
 * with the field's path unless it keeps unknown fields. A type that contains itself is
 * refused, as a CRD's schema cannot refer to itself.
 *
 * <p>
 * <b>The rest of the CRD.</b> One version per model class, each served. The
 * {@code status} subresource is on whenever the model has a status (so that status writes
 * go through {@code /status} and the spec cannot change there); {@link ScaleSubresource}
 * turns on {@code scale}. {@link PrinterColumn}, {@link ShortNames} and
 * {@link Categories} fill the columns and names; a column without a type takes the type
 * of the field its path names. The singular name is the kind in lower case and the list
 * kind is the kind followed by {@code List}.
 *
 * <p>
 * <b>Several versions.</b> Model classes that share group and plural are the versions of
 * one CRD, each with its own schema, subresources and printer columns. They must agree on
 * the kind, the scope and, where they give them, the short names and categories; one of
 * them carries {@link StorageVersion}. The versions are written in the order in which
 * Kubernetes ranks their priority (GA before beta before alpha, higher numbers first:
 * {@code v2, v1, v1beta2, v1beta1, v1alpha1}; other names last, alphabetically), which is
 * also the order {@code kubectl} and discovery list them in. Without a
 * {@link WebhookClientConfig} the CRD has no {@code conversion}, and the API server's
 * default, {@code None}, only rewrites {@code apiVersion}: the schemas must then hold the
 * same fields.
 *
 * <p>
 * <b>Where it runs.</b> At build time: kube-reconciler's manifests generator writes
 * {@code target/kubernetes/crds/<plural>.<group>.yaml} for each custom resource that an
 * application's controllers watch, own or map; tests and other build tools call
 * {@link #write(Path, Collection)} or {@link #yaml(Collection)} themselves. It needs no
 * Spring, and nothing of it is needed at run time.
 *
 * <p>
 * <b>Why victools.</b> The schema walk is victools' jsonschema-generator with its Jakarta
 * validation module. fabric8's crd-generator was the other candidate: it writes CRDs,
 * printer columns and subresources itself, but it takes only classes implementing
 * fabric8's {@code HasMetadata} (its {@code CustomResource} base or its
 * {@code ObjectMeta}), reads fabric8's and Jackson's annotations where client-java models
 * carry Gson's, and brings fabric8's model; a client-java model cannot be handed to it.
 * victools walks any class, resolves generic type arguments through the class hierarchy
 * (classmate), maps Jakarta's constraints, uses Jackson 3 as Spring Boot 4 does, and
 * leaves the CRD around the schema to this class, where the model annotations are read.
 */
public final class CrdGenerator {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private static final Yaml YAML = new Yaml(blockStyle());

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * Write the CRDs of model classes from a build, for example into
	 * {@code target/classes/META-INF/kubernetes/crds}, where the test module and
	 * {@code kube-reconciler.crds.apply} find them; the entry point of the Maven plugin's
	 * {@code crds} goal and of a Gradle {@code JavaExec} task. Two forms:
	 * <ul>
	 * <li>{@code --classes <folder> [--include <pattern>]... [--exclude <pattern>]...
	 * <output folder>}: every class of the compiled classes' folder annotated with
	 * {@link ResourceCoordinates}, selected by class name patterns ({@code *} within a
	 * package, {@code **} across packages, such as {@code com.example.**});</li>
	 * <li>{@code <output folder> <model class>...}: the classes named.</li>
	 * </ul>
	 * The model classes and their dependencies are loaded from the class path.
	 * @param args the arguments above
	 * @throws IllegalArgumentException if the arguments are wrong, no model class is
	 * found, or the generator refuses a model; the message names the fix
	 * @throws Exception if a class cannot be loaded or a file written
	 */
	public static void main(String[] args) throws Exception {
		ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
		GeneratorArguments arguments = GeneratorArguments.parse(args);
		List<Class<?>> models = new ArrayList<>();
		if (arguments.classes() != null) {
			models.addAll(new ModelClassScan(arguments.classes(), arguments.includes(), arguments.excludes())
				.find(classLoader));
		}
		for (String name : arguments.models()) {
			models.add(Class.forName(name, false, classLoader));
		}
		Logger logger = LoggerFactory.getLogger(CrdGenerator.class);
		new CrdGenerator().write(arguments.output(), models).forEach((written) -> logger.info("Wrote {}", written));
	}

	/**
	 * Return the CRD of a model class in YAML, with the class's version alone.
	 * @param model the model class, annotated with {@link ResourceCoordinates}
	 * @return the YAML
	 * @throws IllegalArgumentException if the class is not annotated, or a field has no
	 * structural schema
	 */
	public String yaml(Class<?> model) {
		return yaml(List.of(model));
	}

	/**
	 * Return the CRD of the model classes of its versions in YAML, without a conversion
	 * webhook.
	 * @param versions the model classes, one per version, annotated with
	 * {@link ResourceCoordinates}
	 * @return the YAML
	 * @throws IllegalArgumentException if a class is not annotated, a field has no
	 * structural schema, or the classes are not the versions of one CRD (see
	 * {@link #yaml(Collection, WebhookClientConfig)})
	 */
	public String yaml(Collection<? extends Class<?>> versions) {
		return yaml(versions, null);
	}

	/**
	 * Return the CRD of the model classes of its versions in YAML.
	 * @param versions the model classes, one per version, annotated with
	 * {@link ResourceCoordinates}
	 * @param webhook where the API server sends conversions between the versions, or
	 * {@code null} to write no {@code conversion} (the API server's {@code None})
	 * @return the YAML
	 * @throws IllegalArgumentException if a class is not annotated, a field has no
	 * structural schema, or the classes are not the versions of one CRD: they declare
	 * different groups or plurals, different kinds, scopes, short names or categories,
	 * one version twice, or, when there are several, not exactly one is marked with
	 * {@link StorageVersion}; the message names the classes and the fix
	 */
	public String yaml(Collection<? extends Class<?>> versions, @Nullable WebhookClientConfig webhook) {
		return YAML.dump(plain(crd(versions, webhook)));
	}

	/**
	 * Group model classes by the CRD they declare a version of, the classes that
	 * {@link #yaml(Collection)} takes together.
	 * @param models the model classes, annotated with {@link ResourceCoordinates}
	 * @return the classes of each CRD by its name, {@code <plural>.<group>}; both in the
	 * order met, each class once
	 * @throws IllegalArgumentException if a class is not annotated
	 */
	public static Map<String, List<Class<?>>> byCrd(Collection<? extends Class<?>> models) {
		return CrdVersions.byCrd(models);
	}

	/**
	 * Return the name of the file of a model class's CRD: {@code <plural>.<group>.yaml},
	 * the CRD's own name.
	 * @param model the model class, annotated with {@link ResourceCoordinates}
	 * @return the file name
	 */
	public static String fileName(Class<?> model) {
		return CrdVersions.name(CrdVersions.resource(model)) + ".yaml";
	}

	/**
	 * Write the CRD of each group and plural into a folder, as {@link #fileName(Class)},
	 * with a version for each of its model classes and no conversion webhook.
	 * @param directory the folder, created if missing
	 * @param models the model classes
	 * @return the files written, in the order of the models' first classes
	 * @throws IOException if a file cannot be written
	 * @throws IllegalArgumentException if a class is not annotated, a field has no
	 * structural schema, or the classes of one CRD do not agree (see
	 * {@link #yaml(Collection, WebhookClientConfig)})
	 */
	public List<Path> write(Path directory, Collection<? extends Class<?>> models) throws IOException {
		return write(directory, models, Map.of());
	}

	/**
	 * Write the CRD of each group and plural into a folder, as {@link #fileName(Class)},
	 * with a version for each of its model classes and the conversion webhooks given.
	 * @param directory the folder, created if missing
	 * @param models the model classes
	 * @param webhooks the conversion webhook of each CRD that has one, by the CRD's name
	 * ({@code <plural>.<group>})
	 * @return the files written, in the order of the models' first classes
	 * @throws IOException if a file cannot be written
	 * @throws IllegalArgumentException if a class is not annotated, a field has no
	 * structural schema, the classes of one CRD do not agree (see
	 * {@link #yaml(Collection, WebhookClientConfig)}), or a webhook names a CRD of none
	 * of the classes
	 */
	public List<Path> write(Path directory, Collection<? extends Class<?>> models,
			Map<String, WebhookClientConfig> webhooks) throws IOException {
		Map<String, String> files = files(models, webhooks);
		Files.createDirectories(directory);
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, String> file : files.entrySet()) {
			written.add(Files.writeString(directory.resolve(file.getKey()), file.getValue()));
		}
		return written;
	}

	/**
	 * Return the CRD of each group and plural in YAML, as
	 * {@link #write(Path, Collection, Map) write} writes them, without writing them.
	 * @param models the model classes
	 * @param webhooks the conversion webhook of each CRD that has one, by the CRD's name
	 * @return the YAML of each CRD by its file name, {@code <plural>.<group>.yaml}
	 * @throws IllegalArgumentException as {@link #write(Path, Collection, Map) write}
	 */
	public Map<String, String> files(Collection<? extends Class<?>> models, Map<String, WebhookClientConfig> webhooks) {
		Map<String, List<Class<?>>> crds = byCrd(models);
		for (String name : webhooks.keySet()) {
			if (!crds.containsKey(name)) {
				throw new IllegalArgumentException("A conversion webhook is given for the CRD " + name
						+ ", but no model class declares it; the CRDs are " + crds.keySet());
			}
		}
		Map<String, String> files = new LinkedHashMap<>();
		// every CRD checked and generated before the first file is written
		crds.forEach((name, versions) -> files.put(name + ".yaml", yaml(versions, webhooks.get(name))));
		return files;
	}

	ObjectNode crd(Class<?> model) {
		return crd(List.of(model), null);
	}

	ObjectNode crd(Collection<? extends Class<?>> models, @Nullable WebhookClientConfig webhook) {
		CrdVersions versions = CrdVersions.of(models);
		ResourceCoordinates resource = versions.resource();
		ObjectNode crd = NODES.objectNode()
			.put("apiVersion", "apiextensions.k8s.io/v1")
			.put("kind", "CustomResourceDefinition");
		crd.putObject("metadata").put("name", versions.name());
		ObjectNode spec = crd.putObject("spec").put("group", resource.group());
		ObjectNode names = spec.putObject("names")
			.put("kind", resource.kind())
			.put("listKind", resource.kind() + "List")
			.put("plural", resource.plural())
			.put("singular", resource.kind().toLowerCase(Locale.ROOT));
		if (!versions.shortNames().isEmpty()) {
			versions.shortNames().forEach(names.putArray("shortNames")::add);
		}
		if (!versions.categories().isEmpty()) {
			versions.categories().forEach(names.putArray("categories")::add);
		}
		spec.put("scope", resource.namespaced() ? "Namespaced" : "Cluster");
		ArrayNode versionNodes = spec.putArray("versions");
		for (Class<?> model : versions.models()) {
			versionNodes.add(CrdVersionEntry.of(model, model == versions.storage()));
		}
		if (webhook != null) {
			spec.set("conversion", JSON.valueToTree(webhook.conversion()));
		}
		return crd;
	}

	private static DumperOptions blockStyle() {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		// long descriptions and patterns stay on one line
		options.setWidth(Integer.MAX_VALUE);
		return options;
	}

	// plain maps, lists and values for SnakeYAML, with integral numbers as integers, so
	// that a bound of 1 is written 1 and not 1.0; client-java's Yaml goes through Gson,
	// whose numbers are all doubles
	private static Object plain(JsonNode node) {
		if (node.isObject()) {
			Map<String, Object> map = new LinkedHashMap<>();
			node.properties().forEach((property) -> map.put(property.getKey(), plain(property.getValue())));
			return map;
		}
		if (node.isArray()) {
			List<Object> list = new ArrayList<>();
			node.forEach((item) -> list.add(plain(item)));
			return list;
		}
		if (node.isNumber()) {
			if (node.isIntegralNumber() || node.canConvertToExactIntegral()) {
				return node.longValue();
			}
			return node.doubleValue();
		}
		if (node.isBoolean()) {
			return node.booleanValue();
		}
		return node.asString();
	}

}
