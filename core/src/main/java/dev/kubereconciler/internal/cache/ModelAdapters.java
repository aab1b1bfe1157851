package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Date;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;
import io.kubernetes.client.openapi.JSON;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-java's {@code JSON} Gson made again with one type adapter factory that makes a
 * built-in model's adapter when its type is first read or written, in place of the one
 * factory per model (768 in client-java 27) that Gson tries in turn for every new type,
 * loading each model's class on the first read of any type.
 *
 * <p>
 * Each adapter is the one the model's own {@code CustomTypeAdapterFactory} makes: the
 * object read as a JSON tree, checked by the model's {@code validateJsonElement} when its
 * factory's adapter calls it (some do, and refuse unknown fields; most do not), and bound
 * by the adapter Gson would make without the model factories, so that every type reads
 * and writes as before (the tests compare both on every model). The rest of the Gson is
 * {@code JSON}'s: {@link JSON#createGson()} (the {@code V1Status} pre-processor, the
 * {@code managedFields} exclusion) and the same date and byte adapter instances, so that
 * {@code JSON.setOffsetDateTimeFormat} and the like still apply.
 */
public final class ModelAdapters implements TypeAdapterFactory {

	private static final Logger logger = LoggerFactory.getLogger(ModelAdapters.class);

	private static final String MODELS = "io.kubernetes.client.openapi.models.";

	private static final String FACTORY = "$CustomTypeAdapterFactory";

	private static final byte[] VALIDATE_NAME = "validateJsonElement".getBytes(StandardCharsets.UTF_8);

	private static final MethodType VALIDATE = MethodType.methodType(void.class, JsonElement.class);

	// JSON's own adapters, in the order its initializer registers them
	private static final Object[][] ADAPTERS = { { Date.class, "dateTypeAdapter" },
			{ java.sql.Date.class, "sqlDateTypeAdapter" }, { OffsetDateTime.class, "offsetDateTimeTypeAdapter" },
			{ LocalDate.class, "localDateTypeAdapter" }, { byte[].class, "byteArrayAdapter" } };

	private ModelAdapters() {
	}

	/**
	 * Give client-java's {@code JSON} the Gson of {@link #gson()}, once per JVM; when
	 * {@code JSON}'s adapters cannot be read (another client-java), leave it as it is.
	 */
	public static void install() {
		Installed.touch();
	}

	/**
	 * Make a Gson that reads and writes every type as client-java's {@code JSON} does.
	 * @return the Gson
	 * @throws ReflectiveOperationException if {@code JSON}'s adapters cannot be read
	 */
	public static Gson gson() throws ReflectiveOperationException {
		return withoutModels().registerTypeAdapterFactory(new ModelAdapters()).create();
	}

	/**
	 * Whether a Gson is client-java's own, as {@code JSON}'s initializer makes it, and
	 * not one an application gave {@code JSON.setGson} (with adapters of its own, say),
	 * which is kept. Compared by what Gson tells of itself: its factories in order, the
	 * model factories left out, and the same adapter instances.
	 * @param gson the Gson {@code JSON} has
	 * @return whether it is client-java's own
	 * @throws ReflectiveOperationException if {@code JSON}'s adapters cannot be read
	 */
	static boolean isClientJavas(Gson gson) throws ReflectiveOperationException {
		return describe(gson, true).equals(describe(withoutModels().create(), false));
	}

	private static String describe(Gson gson, boolean leaveOutModels) {
		// Gson's own description: {serializeNulls:..,factories:[..],instanceCreators:..}
		String description = gson.toString();
		if (leaveOutModels) {
			description = description
				.replaceAll(", " + Pattern.quote(MODELS) + "\\w+\\$CustomTypeAdapterFactory@\\p{XDigit}+", "");
		}
		return description.replaceAll("@\\p{XDigit}+", "");
	}

	private static GsonBuilder withoutModels() throws ReflectiveOperationException {
		GsonBuilder builder = JSON.createGson();
		for (Object[] adapter : ADAPTERS) {
			Field field = JSON.class.getDeclaredField((String) adapter[1]);
			field.setAccessible(true);
			builder.registerTypeAdapter((Type) adapter[0], field.get(null));
		}
		return builder;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> @Nullable TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
		Class<?> model = model(type.getRawType());
		if (model == null) {
			return null;
		}
		MethodHandle validate = validator(model);
		TypeAdapter<JsonElement> elements = gson.getAdapter(JsonElement.class);
		TypeAdapter<Object> delegate = (TypeAdapter<Object>) gson.getDelegateAdapter(this, TypeToken.get(model));
		return (TypeAdapter<T>) new ModelAdapter(elements, delegate, validate).nullSafe();
	}

	/**
	 * The built-in model whose factory client-java's {@code JSON} would pick for a type:
	 * the type itself or its nearest superclass that is a model (no model extends
	 * another, so at most one factory matches), or {@code null}.
	 */
	static @Nullable Class<?> model(Class<?> type) {
		for (Class<?> candidate = type; candidate != null; candidate = candidate.getSuperclass()) {
			String name = candidate.getName();
			if (name.startsWith(MODELS) && name.indexOf('$') < 0 && hasFactory(candidate)) {
				return candidate;
			}
		}
		return null;
	}

	// the model's check when its factory's adapter calls it, read off the class file
	// of that adapter, whose constant pool names the method only then
	private static @Nullable MethodHandle validator(Class<?> model) {
		String adapter = model.getName().replace('.', '/') + FACTORY + "$1.class";
		byte[] bytes;
		try (InputStream in = model.getClassLoader().getResourceAsStream(adapter)) {
			if (in == null) {
				throw new IllegalStateException("client-java's model adapter " + adapter + " cannot be read");
			}
			bytes = in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("client-java's model adapter " + adapter + " cannot be read", ex);
		}
		if (!contains(bytes, VALIDATE_NAME)) {
			return null;
		}
		try {
			return MethodHandles.publicLookup().findStatic(model, "validateJsonElement", VALIDATE);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("client-java's model " + model.getName()
					+ " has no validateJsonElement(JsonElement), which its adapter calls", ex);
		}
	}

	private static boolean contains(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i + part.length <= bytes.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	private static boolean hasFactory(Class<?> model) {
		try {
			Class.forName(model.getName() + FACTORY, false, model.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

	/** What a model's {@code CustomTypeAdapterFactory}'s adapter does. */
	private static final class ModelAdapter extends TypeAdapter<Object> {

		private final TypeAdapter<JsonElement> elements;

		private final TypeAdapter<Object> delegate;

		private final @Nullable MethodHandle validate;

		ModelAdapter(TypeAdapter<JsonElement> elements, TypeAdapter<Object> delegate, @Nullable MethodHandle validate) {
			this.elements = elements;
			this.delegate = delegate;
			this.validate = validate;
		}

		@Override
		public void write(JsonWriter out, Object value) throws IOException {
			this.elements.write(out, this.delegate.toJsonTree(value).getAsJsonObject());
		}

		@Override
		public Object read(JsonReader in) throws IOException {
			JsonElement element = this.elements.read(in);
			if (this.validate == null) {
				return this.delegate.fromJsonTree(element);
			}
			try {
				this.validate.invokeExact(element);
			}
			catch (IOException | RuntimeException | Error ex) {
				throw ex;
			}
			catch (Throwable ex) {
				throw new IllegalStateException(ex);
			}
			return this.delegate.fromJsonTree(element);
		}

	}

	/** Installs the Gson on first use, once per JVM. */
	private static final class Installed {

		static final boolean DONE = install();

		private Installed() {
		}

		static void touch() {
			if (!DONE) {
				logger.debug("client-java's JSON kept its own Gson");
			}
		}

		private static boolean install() {
			try {
				if (!isClientJavas(JSON.getGson())) {
					logger.info("client-java's JSON has a Gson of the application's own, which is kept: "
							+ "the first read of each type tries its model factories in turn");
					return false;
				}
				JSON.setGson(gson());
				return true;
			}
			catch (ReflectiveOperationException | RuntimeException ex) {
				logger.debug("client-java's JSON adapters could not be read", ex);
				return false;
			}
		}

	}

}
