package dev.kubereconciler.test.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.openapi.models.V1Container;

/**
 * The command line that stands in for a container's image: the test JVM's {@code java},
 * the application's class path and main class, the JVM options of the container's
 * {@code command} when it runs {@code java}, and its {@code args}.
 */
final class JvmCommand {

	private JvmCommand() {
	}

	static List<String> of(V1Container container, String java, String classPath, String mainClass,
			MountPaths mountPaths) {
		List<String> command = new ArrayList<>();
		command.add(java);
		command.addAll(jvmOptions(container).stream().map(mountPaths::rewrite).toList());
		command.add("-cp");
		command.add(classPath);
		command.add(mainClass);
		for (String arg : Objects.requireNonNullElse(container.getArgs(), List.<String>of())) {
			command.add(mountPaths.rewrite(arg));
		}
		return command;
	}

	// An image's java command names its jar or main class, which the runner replaces;
	// its JVM options (-Xmx, -D...) are kept. Any other command (a shell script) cannot
	// stand for the image's JVM.
	private static List<String> jvmOptions(V1Container container) {
		List<String> command = Objects.requireNonNullElse(container.getCommand(), List.of());
		if (command.isEmpty()) {
			return List.of();
		}
		if (!command.get(0).equals("java") && !command.get(0).endsWith("/java")) {
			throw new IllegalArgumentException("Container '" + container.getName() + "': its command " + command
					+ " does not run java, so the runner cannot run it as a JVM; leave command unset (the image's "
					+ "entry point) or make it a java command line");
		}
		List<String> options = new ArrayList<>();
		for (int i = 1; i < command.size(); i++) {
			String option = command.get(i);
			if (option.equals("-jar") || option.equals("-cp") || option.equals("-classpath")
					|| option.equals("--class-path")) {
				// the jar or class path is the image's; what follows a jar or main class
				// is the program's arguments, which the runner does not take from command
				break;
			}
			if (!option.startsWith("-")) {
				break;
			}
			options.add(option);
		}
		return options;
	}

}
