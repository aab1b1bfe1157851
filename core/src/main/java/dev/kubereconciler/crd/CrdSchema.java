package dev.kubereconciler.crd;

import java.util.Arrays;
import java.util.Set;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.generator.TypeScope;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationModule;
import com.github.victools.jsonschema.module.jakarta.validation.JakartaValidationOption;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.kubereconciler.model.Default;
import dev.kubereconciler.model.Description;
import dev.kubereconciler.model.PreserveUnknownFields;
import dev.kubereconciler.model.ValidationRule;
import dev.kubereconciler.model.ValidationRules;

/**
 * The OpenAPI schema of a custom resource model class: victools' walk of its {@code spec}
 * and {@code status}, configured for client-java's models and the model annotations, then
 * made structural by {@link StructuralSchema}.
 */
final class CrdSchema {

	/**
	 * The fields of the model's own class hierarchy that the schema describes; the others
	 * ({@code apiVersion}, {@code kind}, {@code metadata}) are the API server's.
	 */
	static final Set<String> MODEL_FIELDS = Set.of("spec", "status");

	// the quantity syntax of apimachinery's resource.Quantity, as controller-gen writes
	// it
	private static final String QUANTITY_PATTERN = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]"
			+ "|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private CrdSchema() {
	}

	/**
	 * Generate the {@code openAPIV3Schema} of a model class, without {@code apiVersion},
	 * {@code kind} and {@code metadata}.
	 * @param model the model class
	 * @return the schema
	 * @throws IllegalArgumentException if a field has no structural schema
	 */
	static ObjectNode of(Class<?> model) {
		SchemaGeneratorConfigBuilder builder = new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12,
				OptionPreset.PLAIN_JSON)
			.without(Option.SCHEMA_VERSION_INDICATOR, Option.FLATTENED_ENUMS)
			.with(Option.EXTRA_OPEN_API_FORMAT_VALUES, Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES,
					Option.INLINE_ALL_SCHEMAS);
		if (isPresent("jakarta.validation.constraints.NotNull", model)) {
			// a model without Jakarta's annotations needs no Jakarta on the class path
			builder.with(new JakartaValidationModule(JakartaValidationOption.NOT_NULLABLE_FIELD_IS_REQUIRED,
					JakartaValidationOption.INCLUDE_PATTERN_EXPRESSIONS));
		}
		ClientJavaTypes types = new ClientJavaTypes(model);
		builder.forFields().withCustomDefinitionProvider((field, context) -> {
			types.check(field);
			return null;
		})
			.withIgnoreCheck((field) -> isServersField(field, model) || field.getType().isInstanceOf(Void.class))
			.withPropertyNameOverrideResolver(CrdSchema::serializedName)
			.withDescriptionResolver(
					(field) -> description(field.getAnnotationConsideringFieldAndGetter(Description.class)))
			.withInstanceAttributeOverride(CrdSchema::fieldAttributes);
		builder.forTypesInGeneral()
			.withCustomDefinitionProvider((type, context) -> types.isUnwritable(type.getErasedType())
					// not walked into: the field that holds it is refused by name
					? new CustomDefinition(NODES.objectNode(), CustomDefinition.DefinitionType.INLINE,
							CustomDefinition.AttributeInclusion.NO)
					: customDefinition(type, context))
			.withDescriptionResolver(
					(type) -> description(type.getType().getErasedType().getAnnotation(Description.class)))
			.withTypeAttributeOverride(CrdSchema::typeAttributes);
		ObjectNode schema;
		try {
			schema = new SchemaGenerator(builder.build()).generateSchema(model);
		}
		catch (FieldRefusedException ex) {
			throw ex;
		}
		catch (IllegalArgumentException ex) {
			// INLINE_ALL_SCHEMAS refuses a type that contains itself, as a CRD must
			throw new IllegalArgumentException("Cannot write the schema of " + model.getName() + ": " + ex.getMessage()
					+ "; a CRD's schema cannot refer to itself, so break the cycle or mark the field "
					+ "@PreserveUnknownFields with a type of Object", ex);
		}
		return StructuralSchema.of(schema, model);
	}

	private static boolean isPresent(String className, Class<?> model) {
		try {
			Class.forName(className, false, model.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	private static boolean isServersField(FieldScope field, Class<?> model) {
		// the model's hierarchy, generic bases included; nested types keep all their
		// fields
		return field.getDeclaringType().getErasedType().isAssignableFrom(model)
				&& !MODEL_FIELDS.contains(field.getDeclaredName());
	}

	private static @Nullable String serializedName(FieldScope field) {
		SerializedName name = field.getAnnotation(SerializedName.class);
		return (name != null) ? name.value() : null;
	}

	private static @Nullable String description(@Nullable Description description) {
		return (description != null) ? description.value() : null;
	}

	private static @Nullable CustomDefinition customDefinition(ResolvedType type, SchemaGenerationContext context) {
		Class<?> erased = type.getErasedType();
		ObjectNode freeForm = FreeFormSchemas.of(type);
		if (freeForm != null) {
			return new CustomDefinition(freeForm, CustomDefinition.DefinitionType.INLINE,
					CustomDefinition.AttributeInclusion.YES);
		}
		if (erased == IntOrString.class || erased == Quantity.class) {
			ObjectNode node = NODES.objectNode();
			ArrayNode anyOf = node.putArray("anyOf");
			anyOf.addObject().put("type", "integer");
			anyOf.addObject().put("type", "string");
			if (erased == Quantity.class) {
				node.put("pattern", QUANTITY_PATTERN);
			}
			node.put("x-kubernetes-int-or-string", true);
			return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE,
					CustomDefinition.AttributeInclusion.YES);
		}
		if (erased.isEnum()) {
			ObjectNode node = NODES.objectNode().put("type", "string");
			ArrayNode values = node.putArray("enum");
			Arrays.stream(erased.getFields()).filter((field) -> field.isEnumConstant()).forEach((constant) -> {
				SerializedName name = constant.getAnnotation(SerializedName.class);
				values.add((name != null) ? name.value() : constant.getName());
			});
			return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE,
					CustomDefinition.AttributeInclusion.YES);
		}
		return null;
	}

	private static void fieldAttributes(ObjectNode node, FieldScope field, SchemaGenerationContext context) {
		if (field.isFakeContainerItemScope()) {
			// the annotations of a list field describe the list, not each item
			return;
		}
		if (field.getType().isInstanceOf(Set.class)) {
			// made an x-kubernetes-list-type by StructuralSchema when its items are
			// scalars
			node.put("uniqueItems", true);
		}
		addRules(node, field.getAnnotationConsideringFieldAndGetter(ValidationRules.class),
				field.getAnnotationConsideringFieldAndGetter(ValidationRule.class));
		if (field.getAnnotationConsideringFieldAndGetter(PreserveUnknownFields.class) != null) {
			node.put("x-kubernetes-preserve-unknown-fields", true);
		}
		Default value = field.getAnnotationConsideringFieldAndGetter(Default.class);
		if (value != null) {
			node.set("default", defaultValue(value.value(), field));
		}
	}

	private static void typeAttributes(ObjectNode node, TypeScope scope, SchemaGenerationContext context) {
		Class<?> type = scope.getType().getErasedType();
		addRules(node, type.getAnnotation(ValidationRules.class), type.getAnnotation(ValidationRule.class));
		if (type.getAnnotation(PreserveUnknownFields.class) != null) {
			node.put("x-kubernetes-preserve-unknown-fields", true);
		}
	}

	private static void addRules(ObjectNode node, @Nullable ValidationRules rules, @Nullable ValidationRule rule) {
		ValidationRule[] all = (rules != null) ? rules.value()
				: (rule != null) ? new ValidationRule[] { rule } : new ValidationRule[0];
		if (all.length == 0) {
			return;
		}
		ArrayNode validations = node.has("x-kubernetes-validations") ? (ArrayNode) node.get("x-kubernetes-validations")
				: node.putArray("x-kubernetes-validations");
		for (ValidationRule each : all) {
			// victools applies a type's attributes once per use of the type
			if (validations.valueStream()
				.anyMatch((existing) -> each.value().equals(existing.path("rule").asString()))) {
				continue;
			}
			ObjectNode validation = validations.addObject().put("rule", each.value());
			if (!each.message().isEmpty()) {
				validation.put("message", each.message());
			}
		}
	}

	private static JsonNode defaultValue(String value, FieldScope field) {
		Class<?> type = field.getType().getErasedType();
		if (CharSequence.class.isAssignableFrom(type) || type.isEnum() || type == Quantity.class) {
			return NODES.stringNode(value);
		}
		try {
			return JSON.readTree(value);
		}
		catch (JacksonException ex) {
			if (type == IntOrString.class) {
				return NODES.stringNode(value);
			}
			throw new FieldRefusedException(
					"@Default(\"" + value + "\") of " + field.getDeclaringType().getErasedType().getName() + "."
							+ field.getDeclaredName() + " is not JSON: write a number, true or false, or a JSON object "
							+ "or list, with its strings in double quotes",
					ex);
		}
	}

}
