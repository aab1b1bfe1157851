package dev.kubereconciler.crd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.kubereconciler.model.ResourceCoordinates;

/**
 * Finds the model classes of a folder of compiled classes, those annotated with
 * {@link ResourceCoordinates}, so that a build names no class by hand.
 *
 * <p>
 * Patterns match fully qualified class names: {@code *} stands for any characters but a
 * dot, {@code **} for any characters, as in {@code com.example.**} or
 * {@code com.example.v1.*}; a nested class is matched by its source name,
 * {@code com.example.Outer.Inner}. A class is taken when it matches an include (or there
 * is none) and no exclude.
 */
final class ModelClassScan {

	// how a class file names a runtime-visible annotation of this type in its constant
	// pool: a class without these bytes is not annotated and is never loaded, so that
	// the scan does not initialise, or fail on, the rest of an application's classes
	private static final byte[] DESCRIPTOR = ("L" + ResourceCoordinates.class.getName().replace('.', '/') + ";")
		.getBytes(StandardCharsets.UTF_8);

	private final Path classes;

	private final List<String> includes;

	private final List<String> excludes;

	private final List<Pattern> includePatterns;

	private final List<Pattern> excludePatterns;

	ModelClassScan(Path classes, List<String> includes, List<String> excludes) {
		this.classes = classes;
		this.includes = List.copyOf(includes);
		this.excludes = List.copyOf(excludes);
		this.includePatterns = includes.stream().map(ModelClassScan::pattern).toList();
		this.excludePatterns = excludes.stream().map(ModelClassScan::pattern).toList();
	}

	/**
	 * Return the annotated classes of the folder that the patterns select, by name.
	 * @param parent the class loader of the classes they refer to; the folder is added
	 * after it, for a folder that is not on its class path
	 * @return the classes, at least one
	 * @throws IllegalArgumentException if the folder is missing or holds no selected
	 * model class; the message names the fix
	 */
	List<Class<?>> find(ClassLoader parent) {
		if (!Files.isDirectory(this.classes)) {
			throw new IllegalArgumentException("--classes " + this.classes
					+ ": no such folder; give the folder of the compiled classes, such as target/classes "
					+ "(Maven) or build/classes/java/main (Gradle), after they are compiled");
		}
		List<String> names = annotatedClassNames();
		if (names.isEmpty()) {
			throw new IllegalArgumentException(noModelMessage());
		}
		ClassLoader loader = new URLClassLoader(new URL[] { url(this.classes) }, parent);
		List<Class<?>> models = new ArrayList<>();
		for (String name : names) {
			try {
				Class<?> type = Class.forName(name, false, loader);
				if (type.isAnnotationPresent(ResourceCoordinates.class)) {
					models.add(type);
				}
			}
			catch (ClassNotFoundException | LinkageError ex) {
				throw new IllegalArgumentException("The model class " + name + " in " + this.classes
						+ " cannot be loaded (" + ex + "); put its dependencies on the generator's class path", ex);
			}
		}
		if (models.isEmpty()) {
			throw new IllegalArgumentException(noModelMessage());
		}
		return models;
	}

	private List<String> annotatedClassNames() {
		try (Stream<Path> files = Files.walk(this.classes)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".class"))
				.map(this::className)
				.filter((name) -> !name.endsWith("module-info") && !name.endsWith("package-info"))
				.filter(this::selected)
				.sorted()
				.filter((name) -> annotated(this.classes.resolve(name.replace('.', '/') + ".class")))
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the classes in " + this.classes, ex);
		}
	}

	private String className(Path file) {
		String relative = this.classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
		return relative.substring(0, relative.length() - ".class".length());
	}

	// a nested class by its source name, com.example.Outer.Inner
	private boolean selected(String name) {
		String dotted = name.replace('$', '.');
		boolean included = this.includePatterns.isEmpty()
				|| this.includePatterns.stream().anyMatch((pattern) -> pattern.matcher(dotted).matches());
		return included && this.excludePatterns.stream().noneMatch((pattern) -> pattern.matcher(dotted).matches());
	}

	private static boolean annotated(Path file) {
		try {
			return indexOf(Files.readAllBytes(file), DESCRIPTOR) >= 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + file, ex);
		}
	}

	private static int indexOf(byte[] bytes, byte[] part) {
		outer: for (int i = 0; i <= bytes.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (bytes[i + j] != part[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	private String noModelMessage() {
		StringBuilder message = new StringBuilder("No class in ").append(this.classes)
			.append(" is annotated with @")
			.append(ResourceCoordinates.class.getName());
		if (!this.includes.isEmpty()) {
			message.append(" and matches the includes ").append(this.includes);
		}
		if (!this.excludes.isEmpty()) {
			message.append(" outside the excludes ").append(this.excludes);
		}
		return message.append(": annotate each custom resource model class with @ResourceCoordinates(group, version, ")
			.append("kind, plural)")
			.append(this.includes.isEmpty() && this.excludes.isEmpty() ? "" : ", or widen the includes and excludes")
			.append(", and generate the CRDs after the classes are compiled")
			.toString();
	}

	private static Pattern pattern(String glob) {
		if (glob.isBlank()) {
			throw new IllegalArgumentException("A class name pattern is empty; give a pattern such as com.example.**");
		}
		StringBuilder regex = new StringBuilder();
		for (int i = 0; i < glob.length(); i++) {
			char c = glob.charAt(i);
			if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
				regex.append(".*");
				i++;
			}
			else if (c == '*') {
				regex.append("[^.]*");
			}
			else {
				regex.append(Pattern.quote(String.valueOf(c)));
			}
		}
		return Pattern.compile(regex.toString());
	}

	private static URL url(Path folder) {
		try {
			return folder.toUri().toURL();
		}
		catch (MalformedURLException ex) {
			throw new IllegalArgumentException("Cannot read the classes in " + folder, ex);
		}
	}

}
