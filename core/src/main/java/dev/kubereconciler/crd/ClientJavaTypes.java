package dev.kubereconciler.crd;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Period;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.FieldScope;
import com.google.gson.Gson;
import com.google.gson.JsonIOException;
import com.google.gson.ReflectionAccessFilter;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.JSON;

/**
 * Refuses a field of a type that client-java's JSON cannot read or write, naming the
 * field and the type to declare instead, so that a model is refused when its CRD is
 * generated and not when its first object is sent.
 *
 * <p>
 * client-java's Gson has adapters for {@code OffsetDateTime}, {@code LocalDate},
 * {@code byte[]}, {@code Quantity} and {@code IntOrString}, and Gson its own for strings,
 * numbers, booleans, enums, collections and maps. Any other JDK class, such as
 * {@code Optional} or {@code Instant}, falls to reflection over the JDK's private fields,
 * which Java 17 refuses at the first write, and would otherwise write those fields.
 */
final class ClientJavaTypes {

	private static final Set<Class<?>> DATE_TIMES = Set.of(Instant.class, LocalDateTime.class, ZonedDateTime.class,
			Calendar.class);

	private static final Set<Class<?>> DURATIONS = Set.of(Duration.class, Period.class, LocalTime.class);

	private static final Map<Class<?>, Class<?>> OPTIONALS = Map.of(OptionalInt.class, Integer.class,
			OptionalLong.class, Long.class, OptionalDouble.class, Double.class);

	// client-java's own Gson, kept from reflecting over JDK classes whatever the JVM's
	// --add-opens
	private final Gson gson = new JSON().getGson()
		.newBuilder()
		.addReflectionAccessFilter(ReflectionAccessFilter.BLOCK_ALL_JAVA)
		.create();

	private final Class<?> model;

	ClientJavaTypes(Class<?> model) {
		this.model = model;
	}

	/**
	 * Refuse the field if its type, or a type argument or element type of it, is a JDK
	 * class client-java's JSON cannot write; the fields of the model's own classes are
	 * checked where the schema walk reaches them.
	 * @param field the field
	 * @throws FieldRefusedException naming the field and the fix
	 */
	void check(FieldScope field) {
		if (!field.isFakeContainerItemScope()) {
			check(field.getDeclaredType(), field);
		}
	}

	private void check(ResolvedType type, FieldScope field) {
		Class<?> erased = type.getErasedType();
		if (erased.isArray()) {
			if (!erased.getComponentType().isPrimitive()) {
				check(type.getArrayElementType(), field);
			}
			return;
		}
		if (isUnwritable(erased)) {
			throw refused(field, erased, type);
		}
		type.getTypeParameters().forEach((argument) -> check(argument, field));
	}

	/**
	 * Return whether a class is a JDK class that client-java's JSON cannot write, whose
	 * fields the schema walk must not descend into: the field that holds it is refused.
	 * @param type the class
	 * @return whether it is refused
	 */
	boolean isUnwritable(Class<?> type) {
		return !type.isPrimitive() && !type.isArray() && isJdk(type) && !isWritten(type);
	}

	private static boolean isJdk(Class<?> type) {
		String name = type.getName();
		return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
	}

	private boolean isWritten(Class<?> type) {
		try {
			this.gson.getAdapter(TypeToken.get(type));
			return true;
		}
		catch (JsonIOException | IllegalArgumentException ex) {
			return false;
		}
	}

	private FieldRefusedException refused(FieldScope field, Class<?> unwritable, ResolvedType type) {
		return new FieldRefusedException("Cannot write the CRD of " + this.model.getName() + ": the field "
				+ field.getDeclaringType().getErasedType().getName() + "." + field.getDeclaredName() + " is a "
				+ field.getRawMember().getGenericType().getTypeName() + ", which client-java's JSON cannot read or "
				+ "write; " + fix(unwritable, type));
	}

	private static String fix(Class<?> unwritable, ResolvedType type) {
		Class<?> boxed = OPTIONALS.get(unwritable);
		if (boxed != null) {
			return "declare it " + boxed.getName() + ", null when absent";
		}
		if (unwritable == Optional.class) {
			Class<?> value = type.getTypeParameters().isEmpty() ? Object.class
					: type.getTypeParameters().get(0).getErasedType();
			return "declare it " + value.getName() + ", null when absent";
		}
		if (DATE_TIMES.contains(unwritable)) {
			return "declare it java.time.OffsetDateTime, which client-java writes as the API server's RFC 3339 "
					+ "date-time";
		}
		if (DURATIONS.contains(unwritable)) {
			return "declare it a String such as \"30s\", as Kubernetes writes durations, or a number of seconds";
		}
		return "declare it a type client-java writes: String, a number, boolean, OffsetDateTime, LocalDate, byte[], "
				+ "Quantity, IntOrString, an enum, a List, a Map with String keys, or a class of such fields";
	}

}
