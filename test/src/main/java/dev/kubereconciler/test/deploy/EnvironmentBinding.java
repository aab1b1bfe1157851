package dev.kubereconciler.test.deploy;

import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import org.jspecify.annotations.Nullable;

/**
 * Judges a container's environment as Spring Boot's relaxed binding reads it: every
 * variable that looks like a Spring property (its name starts with the first part of a
 * property the application's configuration metadata names, such as {@code SPRING_} or
 * {@code KUBERECONCILER_}) must name a property of that metadata
 * ({@code META-INF/spring-configuration-metadata.json} on the application's class path),
 * or a key below a map or list property, or the variable is ignored in the pod without a
 * word: leader election silently off, a mounted certificate never read.
 */
public final class EnvironmentBinding {

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private final ClassLoader classLoader;

	// by uniform name (lower case, no dashes): the property as written, and its type
	private final Map<List<String>, Property> properties = new LinkedHashMap<>();

	private final Set<String> roots = new TreeSet<>();

	private EnvironmentBinding(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	/**
	 * Read the configuration metadata on an application's class path.
	 * @param classLoader a class loader over the application's class path
	 * @return the judge of that application's environment
	 */
	public static EnvironmentBinding of(ClassLoader classLoader) {
		EnvironmentBinding binding = new EnvironmentBinding(classLoader);
		try {
			Enumeration<URL> files = classLoader.getResources(METADATA);
			while (files.hasMoreElements()) {
				try (Reader reader = new InputStreamReader(files.nextElement().openStream(), StandardCharsets.UTF_8)) {
					JsonObject metadata = JsonParser.parseReader(reader).getAsJsonObject();
					if (metadata.has("properties")) {
						metadata.getAsJsonArray("properties").forEach(binding::add);
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the configuration metadata of the application", ex);
		}
		return binding;
	}

	/**
	 * Return the variables of an environment that look like Spring properties but bind to
	 * none, in the order given.
	 * @param environment the container's variables, by name
	 * @return the variables that bind to nothing, each with the key Spring reads from it
	 */
	public List<UnboundVariable> unbound(Map<String, String> environment) {
		List<UnboundVariable> unbound = new ArrayList<>();
		for (String variable : environment.keySet()) {
			List<String> elements = elements(variable);
			if (judged(variable) && !binds(elements)) {
				unbound.add(new UnboundVariable(variable, String.join(".", elements), nearest(variable)));
			}
		}
		return unbound;
	}

	/**
	 * Fail if a variable of a container's environment binds to no property.
	 * @param container the container's name, for the message
	 * @param environment the container's variables, by name
	 * @throws IllegalStateException naming each variable, the key Spring reads from it
	 * and, where one is near, the variable that sets the property it means
	 */
	public void check(String container, Map<String, String> environment) {
		List<UnboundVariable> unbound = unbound(environment);
		if (!unbound.isEmpty()) {
			StringBuilder message = new StringBuilder("The container ").append(container)
				.append(" has environment variables that bind to no property of the application, ")
				.append("so Spring Boot would ignore them in the pod:");
			unbound.forEach((variable) -> message.append(System.lineSeparator()).append("  ").append(variable));
			throw new IllegalStateException(message.toString());
		}
	}

	/**
	 * Fail if a variable of a container's environment binds to no property of the
	 * application run from a class path.
	 * @param container the container, whose {@code env} is judged by name
	 * @param classPath the application's class path
	 * @throws IllegalStateException naming each variable that binds to nothing
	 */
	static void check(V1Container container, String classPath) {
		URL[] urls = Arrays.stream(classPath.split(File.pathSeparator))
			.filter((entry) -> !entry.isEmpty())
			.map(EnvironmentBinding::url)
			.toArray(URL[]::new);
		Map<String, String> environment = new LinkedHashMap<>();
		for (V1EnvVar variable : Objects.requireNonNullElse(container.getEnv(), List.<V1EnvVar>of())) {
			environment.put(variable.getName(), "");
		}
		try (URLClassLoader classLoader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
			of(classLoader).check(container.getName(), environment);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static URL url(String entry) {
		try {
			return Path.of(entry).toUri().toURL();
		}
		catch (MalformedURLException ex) {
			throw new IllegalArgumentException("Not a class path entry: " + entry, ex);
		}
	}

	private void add(JsonElement element) {
		JsonObject property = element.getAsJsonObject();
		String name = property.get("name").getAsString();
		String type = property.has("type") ? property.get("type").getAsString() : "";
		List<String> uniform = Arrays.stream(name.split("\\.")).map(EnvironmentBinding::uniform).toList();
		this.properties.put(uniform, new Property(name, type));
		if (uniform.size() > 1) {
			this.roots.add(uniform.get(0));
		}
	}

	// a variable Spring might mean: it starts with the prefix of a group of properties,
	// such as spring or kubereconciler; a root that is a property of its own (debug,
	// trace) is too common a word to judge by
	private boolean judged(String variable) {
		String flat = variable.replace("_", "").toLowerCase(Locale.ROOT);
		return this.roots.stream()
			.anyMatch(
					(root) -> !root.isEmpty() && flat.startsWith(root) && !this.properties.containsKey(List.of(root)));
	}

	private boolean binds(List<String> elements) {
		if (this.properties.containsKey(elements)) {
			return true;
		}
		for (int i = elements.size() - 1; i > 0; i--) {
			Property property = this.properties.get(elements.subList(0, i));
			if (property != null && property.binds(elements.subList(i, elements.size()), this.classLoader)) {
				return true;
			}
		}
		return false;
	}

	// the property whose name, run together, is the variable's, as a misplaced
	// underscore leaves it
	private @Nullable String nearest(String variable) {
		String flat = variable.replace("_", "").toLowerCase(Locale.ROOT);
		return this.properties.entrySet()
			.stream()
			.filter((entry) -> String.join("", entry.getKey()).equals(flat))
			.map((entry) -> entry.getValue().name())
			.findFirst()
			.orElse(null);
	}

	// Spring's SystemEnvironmentPropertyMapper: underscores separate the elements
	private static List<String> elements(String variable) {
		return Arrays.stream(variable.toLowerCase(Locale.ROOT).split("_")).filter((part) -> !part.isEmpty()).toList();
	}

	private static String uniform(String element) {
		return element.replace("-", "").toLowerCase(Locale.ROOT);
	}

	/**
	 * A variable that binds to no property.
	 *
	 * @param variable the variable's name
	 * @param key the key Spring Boot reads from it
	 * @param nearest the property it most likely means, or {@code null}
	 */
	public record UnboundVariable(String variable, String key, @Nullable String nearest) {

		@Override
		public String toString() {
			String read = this.variable + " is read as '" + this.key + "', which no property names";
			if (this.nearest == null) {
				return read;
			}
			return read + "; the property '" + this.nearest + "' is read from "
					+ this.nearest.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
		}

	}

	private record Property(String name, String type) {

		// the elements below a map or list property, judged against its value type
		boolean binds(List<String> rest, ClassLoader classLoader) {
			String raw = this.type.contains("<") ? this.type.substring(0, this.type.indexOf('<')) : this.type;
			if (raw.equals("java.util.Map")) {
				String value = this.type.substring(this.type.lastIndexOf(',') + 1, this.type.length() - 1).trim();
				Class<?> valueClass = load(value, classLoader);
				return valueClass == null || scalar(valueClass) || bindsBelow(valueClass, rest.subList(1, rest.size()));
			}
			if (raw.equals("java.util.List") || raw.equals("java.util.Set") || raw.endsWith("[]")) {
				return rest.get(0).chars().allMatch(Character::isDigit);
			}
			return false;
		}

		private static @Nullable Class<?> load(String name, ClassLoader classLoader) {
			try {
				return Class.forName(name.contains("<") ? name.substring(0, name.indexOf('<')) : name, false,
						classLoader);
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return null;
			}
		}

		// an unknown type is given the benefit of the doubt
		private static boolean bindsBelow(@Nullable Type type, List<String> rest) {
			if (rest.isEmpty() || type == null) {
				return true;
			}
			Class<?> raw = raw(type);
			if (raw == null) {
				return true;
			}
			if (Map.class.isAssignableFrom(raw)) {
				// a map of values takes every key below it, dots and all
				Type value = argument(type, 1);
				Class<?> valueClass = (value != null) ? raw(value) : null;
				return valueClass == null || scalar(valueClass) || bindsBelow(value, rest.subList(1, rest.size()));
			}
			if (Collection.class.isAssignableFrom(raw)) {
				return rest.get(0).chars().allMatch(Character::isDigit)
						&& bindsBelow(argument(type, 0), rest.subList(1, rest.size()));
			}
			if (scalar(raw)) {
				return false;
			}
			for (Method method : raw.getMethods()) {
				if (method.getParameterCount() == 0 && !Modifier.isStatic(method.getModifiers())
						&& method.getDeclaringClass() != Object.class
						&& uniform(method.getName().replaceFirst("^(get|is)(?=[A-Z])", "")).equals(rest.get(0))) {
					return bindsBelow(method.getGenericReturnType(), rest.subList(1, rest.size()));
				}
			}
			return false;
		}

		private static boolean scalar(Class<?> type) {
			return type.isPrimitive() || type.isEnum() || type.getName().startsWith("java.");
		}

		private static @Nullable Class<?> raw(Type type) {
			if (type instanceof Class<?> type1) {
				return type1;
			}
			if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
				return raw;
			}
			return null;
		}

		private static @Nullable Type argument(Type type, int index) {
			if (type instanceof ParameterizedType parameterized
					&& parameterized.getActualTypeArguments().length > index) {
				return parameterized.getActualTypeArguments()[index];
			}
			return null;
		}

	}

}
