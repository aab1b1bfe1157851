package dev.kubereconciler.crd;

import java.util.List;
import java.util.Map;

import com.fasterxml.classmate.ResolvedType;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The schemas of the types whose values client-java writes as JSON that no schema can
 * describe field by field ({@code Object}, a map of {@code Object}s, Gson's own
 * {@code JsonElement}s), kept whole by the API server, and of {@code byte[]}, which
 * client-java writes in base64.
 */
final class FreeFormSchemas {

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private FreeFormSchemas() {
	}

	/**
	 * Return the schema of a type written as free-form JSON or as bytes.
	 * @param type the type
	 * @return its schema, or {@code null} if it is neither
	 */
	static @Nullable ObjectNode of(ResolvedType type) {
		Class<?> erased = type.getErasedType();
		if (erased == byte[].class) {
			return NODES.objectNode().put("type", "string").put("format", "byte");
		}
		if (erased == Object.class || erased == JsonElement.class || erased == JsonPrimitive.class) {
			// any value, scalars included, so no type
			return keepsUnknownFields(NODES.objectNode());
		}
		if (erased == JsonObject.class || (Map.class.isAssignableFrom(erased) && isOfObjects(type, Map.class, 1))) {
			// an untyped map written as type: object alone is pruned to {} by the server
			return keepsUnknownFields(NODES.objectNode().put("type", "object"));
		}
		if (erased == JsonArray.class) {
			ObjectNode node = NODES.objectNode().put("type", "array");
			keepsUnknownFields(node.putObject("items"));
			return node;
		}
		return null;
	}

	private static boolean isOfObjects(ResolvedType type, Class<?> generic, int index) {
		List<ResolvedType> arguments = type.typeParametersFor(generic);
		// a raw Map has no type arguments, and holds Objects
		return arguments == null || arguments.isEmpty() || arguments.get(index).getErasedType() == Object.class;
	}

	private static ObjectNode keepsUnknownFields(ObjectNode node) {
		return node.put("x-kubernetes-preserve-unknown-fields", true);
	}

}
