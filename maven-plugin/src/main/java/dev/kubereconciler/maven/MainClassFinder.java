package dev.kubereconciler.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the classes of a folder of compiled classes annotated with
 * {@code @SpringBootApplication}, by the annotation's descriptor in each class file, so
 * that no class is loaded into the plugin.
 */
final class MainClassFinder {

	private static final byte[] DESCRIPTOR = "Lorg/springframework/boot/autoconfigure/SpringBootApplication;"
		.getBytes(StandardCharsets.UTF_8);

	private MainClassFinder() {
	}

	/**
	 * Return the names of the annotated classes.
	 * @param classes the folder of compiled classes
	 * @return their names, sorted
	 */
	static List<String> springBootApplications(Path classes) {
		if (!Files.isDirectory(classes)) {
			return List.of();
		}
		try (Stream<Path> files = Files.walk(classes)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".class"))
				.filter(MainClassFinder::annotated)
				.map((file) -> className(classes, file))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the classes in " + classes, ex);
		}
	}

	private static boolean annotated(Path file) {
		try {
			byte[] bytes = Files.readAllBytes(file);
			outer: for (int i = 0; i <= bytes.length - DESCRIPTOR.length; i++) {
				for (int j = 0; j < DESCRIPTOR.length; j++) {
					if (bytes[i + j] != DESCRIPTOR[j]) {
						continue outer;
					}
				}
				return true;
			}
			return false;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + file, ex);
		}
	}

	private static String className(Path classes, Path file) {
		String relative = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
		return relative.substring(0, relative.length() - ".class".length());
	}

}
