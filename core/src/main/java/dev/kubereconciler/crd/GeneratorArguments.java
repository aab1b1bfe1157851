package dev.kubereconciler.crd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The command line of {@link CrdGenerator#main(String[])}.
 *
 * @param output the folder the CRDs are written to
 * @param classes the folder of compiled classes to scan, or {@code null}
 * @param includes the class name patterns the scan takes
 * @param excludes the class name patterns the scan leaves out
 * @param models the model classes named
 */
record GeneratorArguments(Path output, @Nullable Path classes, List<String> includes, List<String> excludes,
		List<String> models) {

	static final String USAGE = "Usage: CrdGenerator --classes <compiled classes folder> [--include <pattern>]... "
			+ "[--exclude <pattern>]... <output folder>, or CrdGenerator <output folder> <model class>...";

	static GeneratorArguments parse(String[] args) {
		Path classes = null;
		List<String> includes = new ArrayList<>();
		List<String> excludes = new ArrayList<>();
		List<String> positional = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			switch (arg) {
				case "--classes" -> classes = Path.of(value(args, ++i, arg));
				case "--include" -> includes.add(value(args, ++i, arg));
				case "--exclude" -> excludes.add(value(args, ++i, arg));
				default -> {
					if (arg.startsWith("--")) {
						throw new IllegalArgumentException("Unknown option " + arg + ". " + USAGE);
					}
					positional.add(arg);
				}
			}
		}
		if (positional.isEmpty() || (classes == null && positional.size() < 2)) {
			throw new IllegalArgumentException(USAGE);
		}
		if (classes == null && !(includes.isEmpty() && excludes.isEmpty())) {
			throw new IllegalArgumentException(
					"--include and --exclude select the classes of --classes, " + "which is missing. " + USAGE);
		}
		return new GeneratorArguments(Path.of(positional.get(0)), classes, includes, excludes,
				positional.subList(1, positional.size()));
	}

	private static String value(String[] args, int index, String option) {
		if (index >= args.length) {
			throw new IllegalArgumentException(option + " needs a value. " + USAGE);
		}
		return args[index];
	}

}
