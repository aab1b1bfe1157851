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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * Writes the {@code apiextensions.k8s.io/v1} CustomResourceDefinition of a custom
 * resource model class, with a structural schema generated from the class, so that the
 * CRD cannot drift from the model that reads it.
 *
 * <p>
 * <b>What it reads.</b> The model class carries {@link KubernetesResource} (group,
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
 * {@code double}), {@code OffsetDateTime} as {@code date-time}, and client-java's
 * {@code Quantity} and {@code IntOrString} as {@code x-kubernetes-int-or-string}. Jakarta
 * Bean Validation: {@code @NotNull} makes a field required, {@code @Min}, {@code @Max},
 * {@code @Size} and {@code @Pattern} (and {@code @Positive}, {@code @NotBlank} and the
 * other constraints victools' module knows) become the schema's bounds. This package's
 * annotations add {@link Description descriptions}, {@link Default defaults},
 * {@link ValidationRule CEL rules} ({@code x-kubernetes-validations}) and
 * {@link PreserveUnknownFields x-kubernetes-preserve-unknown-fields}; a field whose type
 * gives no schema, such as {@code Object}, is refused with the field's path unless it
 * keeps unknown fields. A type that contains itself is refused, as a CRD's schema cannot
 * refer to itself.
 *
 * <p>
 * <b>The rest of the CRD.</b> One version, served and stored. The {@code status}
 * subresource is on whenever the model has a status (so that status writes go through
 * {@code /status} and the spec cannot change there); {@link ScaleSubresource} turns on
 * {@code scale}. {@link PrinterColumn}, {@link ShortNames} and {@link Categories} fill
 * the columns and names; the singular name is the kind in lower case and the list kind is
 * the kind followed by {@code List}.
 *
 * <p>
 * <b>Where it runs.</b> At build time: kube-reconciler's manifests generator writes
 * {@code target/kubernetes/crds/<plural>.<group>.yaml} for each custom resource that an
 * application's controllers watch, own or map; tests and other build tools call
 * {@link #write(Path, Collection)} or {@link #yaml(Class)} themselves. It needs no
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
 * leaves the CRD around the schema to this class, where the annotations of this package
 * are read.
 */
public final class CrdGenerator {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private static final Yaml YAML = new Yaml(blockStyle());

	/**
	 * Write the CRDs of model classes from a build, for example into
	 * {@code target/classes/META-INF/kubernetes/crds}, where the test module installs
	 * them.
	 * @param args the output folder, then the model classes' names
	 * @throws Exception if a class cannot be loaded or a file written
	 */
	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			throw new IllegalArgumentException("Usage: CrdGenerator <output folder> <model class>...");
		}
		List<Class<?>> models = new ArrayList<>();
		ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
		for (int i = 1; i < args.length; i++) {
			models.add(Class.forName(args[i], false, classLoader));
		}
		Logger logger = LoggerFactory.getLogger(CrdGenerator.class);
		new CrdGenerator().write(Path.of(args[0]), models).forEach((written) -> logger.info("Wrote {}", written));
	}

	/**
	 * Return the CRD of a model class in YAML.
	 * @param model the model class, annotated with {@link KubernetesResource}
	 * @return the YAML
	 * @throws IllegalArgumentException if the class is not annotated, or a field has no
	 * structural schema
	 */
	public String yaml(Class<?> model) {
		return YAML.dump(plain(crd(model)));
	}

	/**
	 * Return the name of the file of a model class's CRD: {@code <plural>.<group>.yaml},
	 * the CRD's own name.
	 * @param model the model class, annotated with {@link KubernetesResource}
	 * @return the file name
	 */
	public static String fileName(Class<?> model) {
		KubernetesResource resource = resource(model);
		return resource.plural() + "." + resource.group() + ".yaml";
	}

	/**
	 * Write the CRD of each model class into a folder, as {@link #fileName(Class)}.
	 * @param directory the folder, created if missing
	 * @param models the model classes
	 * @return the files written, in the order of the models
	 * @throws IOException if a file cannot be written
	 * @throws IllegalArgumentException if a class is not annotated, a field has no
	 * structural schema, or two classes share a CRD (one CRD per group and plural)
	 */
	public List<Path> write(Path directory, Collection<? extends Class<?>> models) throws IOException {
		Map<String, Class<?>> byFile = new LinkedHashMap<>();
		for (Class<?> model : models) {
			Class<?> other = byFile.putIfAbsent(fileName(model), model);
			if (other != null && other != model) {
				throw new IllegalArgumentException(model.getName() + " and " + other.getName()
						+ " both declare the CRD " + fileName(model) + ": give each a plural or group of its own");
			}
		}
		Files.createDirectories(directory);
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, Class<?>> file : byFile.entrySet()) {
			written.add(Files.writeString(directory.resolve(file.getKey()), yaml(file.getValue())));
		}
		return written;
	}

	ObjectNode crd(Class<?> model) {
		KubernetesResource resource = resource(model);
		ObjectNode schema = CrdSchema.of(model);
		ObjectNode crd = NODES.objectNode()
			.put("apiVersion", "apiextensions.k8s.io/v1")
			.put("kind", "CustomResourceDefinition");
		crd.putObject("metadata").put("name", resource.plural() + "." + resource.group());
		ObjectNode spec = crd.putObject("spec").put("group", resource.group());
		ObjectNode names = spec.putObject("names")
			.put("kind", resource.kind())
			.put("listKind", resource.kind() + "List")
			.put("plural", resource.plural())
			.put("singular", resource.kind().toLowerCase(Locale.ROOT));
		ShortNames shortNames = model.getAnnotation(ShortNames.class);
		if (shortNames != null) {
			strings(names.putArray("shortNames"), shortNames.value());
		}
		Categories categories = model.getAnnotation(Categories.class);
		if (categories != null) {
			strings(names.putArray("categories"), categories.value());
		}
		spec.put("scope", resource.namespaced() ? "Namespaced" : "Cluster");
		ObjectNode version = spec.putArray("versions")
			.addObject()
			.put("name", resource.version())
			.put("served", true)
			.put("storage", true);
		version.putObject("schema").set("openAPIV3Schema", withServerFields(schema));
		ObjectNode subresources = subresources(model, schema);
		if (!subresources.isEmpty()) {
			version.set("subresources", subresources);
		}
		PrinterColumn[] columns = model.getAnnotationsByType(PrinterColumn.class);
		if (columns.length > 0) {
			ArrayNode printerColumns = version.putArray("additionalPrinterColumns");
			for (PrinterColumn column : columns) {
				ObjectNode node = printerColumns.addObject().put("name", column.name()).put("type", column.type());
				if (!column.format().isEmpty()) {
					node.put("format", column.format());
				}
				if (!column.description().isEmpty()) {
					node.put("description", column.description());
				}
				if (column.priority() != 0) {
					node.put("priority", column.priority());
				}
				node.put("jsonPath", column.jsonPath());
			}
		}
		return crd;
	}

	private static ObjectNode withServerFields(ObjectNode schema) {
		// the API server's own fields first, as controller-gen writes them
		ObjectNode properties = NODES.objectNode();
		properties.putObject("apiVersion").put("type", "string");
		properties.putObject("kind").put("type", "string");
		properties.putObject("metadata").put("type", "object");
		JsonNode own = schema.get("properties");
		if (own != null) {
			own.properties().forEach((property) -> properties.set(property.getKey(), property.getValue()));
		}
		ObjectNode root = NODES.objectNode();
		JsonNode description = schema.remove("description");
		if (description != null) {
			root.set("description", description);
		}
		root.put("type", "object").set("properties", properties);
		schema.properties().forEach((property) -> root.putIfAbsent(property.getKey(), property.getValue()));
		return root;
	}

	private static ObjectNode subresources(Class<?> model, ObjectNode schema) {
		ObjectNode subresources = NODES.objectNode();
		if (schema.path("properties").has("status")) {
			subresources.putObject("status");
		}
		ScaleSubresource scale = model.getAnnotation(ScaleSubresource.class);
		if (scale != null) {
			ObjectNode node = subresources.putObject("scale")
				.put("specReplicasPath", scale.specReplicasPath())
				.put("statusReplicasPath", scale.statusReplicasPath());
			if (!scale.labelSelectorPath().isEmpty()) {
				node.put("labelSelectorPath", scale.labelSelectorPath());
			}
		}
		return subresources;
	}

	private static void strings(ArrayNode array, String[] values) {
		for (String value : values) {
			array.add(value);
		}
	}

	private static DumperOptions blockStyle() {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		// long descriptions and patterns stay on one line
		options.setWidth(Integer.MAX_VALUE);
		return options;
	}

	private static KubernetesResource resource(Class<?> model) {
		KubernetesResource resource = model.getAnnotation(KubernetesResource.class);
		if (resource == null) {
			throw new IllegalArgumentException(model.getName() + " has no CRD to generate: annotate it with "
					+ "@KubernetesResource(group, version, kind, plural)");
		}
		return resource;
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
