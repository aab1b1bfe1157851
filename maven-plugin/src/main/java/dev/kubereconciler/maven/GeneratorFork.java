package dev.kubereconciler.maven;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.jspecify.annotations.Nullable;

/**
 * Runs a generator's {@code main} in a JVM of its own, over the project's class path
 * followed by the plugin's artifacts the project lacks.
 *
 * <p>
 * A fork rather than the plugin's class realm: the model classes extend core's
 * {@code CustomResource} and the application's context needs its whole class path, in the
 * versions the project chose; a fork runs them as the application's own JVM would, as
 * Gradle's {@code JavaExec} runs the same entry points.
 */
final class GeneratorFork {

	private static final String EXCEPTION_IN_MAIN = "Exception in thread \"main\" ";

	private static final String CAUSED_BY = "Caused by: ";

	private final Log log;

	private final Path workingDirectory;

	private final Path argumentsFile;

	GeneratorFork(Log log, Path workingDirectory, Path argumentsFile) {
		this.log = log;
		this.workingDirectory = workingDirectory;
		this.argumentsFile = argumentsFile;
	}

	/**
	 * Return the class path of the fork: the project's elements, then each of the
	 * plugin's artifacts whose group and artifact the project does not have, so that the
	 * project's versions win.
	 * @param projectElements the project's class path elements
	 * @param projectArtifacts the project's resolved artifacts
	 * @param pluginArtifacts the plugin's resolved artifacts
	 * @param pluginKey the plugin's own {@code groupId:artifactId}, left out
	 * @return the class path
	 */
	static List<String> classPath(List<String> projectElements, Collection<Artifact> projectArtifacts,
			Collection<Artifact> pluginArtifacts, String pluginKey) {
		Set<String> projectKeys = projectArtifacts.stream().map(GeneratorFork::key).collect(Collectors.toSet());
		Set<String> elements = new LinkedHashSet<>(projectElements);
		for (Artifact artifact : pluginArtifacts) {
			String key = key(artifact);
			if (!key.equals(pluginKey) && !projectKeys.contains(key) && artifact.getFile() != null) {
				elements.add(artifact.getFile().getAbsolutePath());
			}
		}
		return List.copyOf(elements);
	}

	/**
	 * Fail unless the project has an artifact, the one that holds a generator.
	 * @param projectArtifacts the project's resolved artifacts
	 * @param key the artifact's {@code groupId:artifactId}
	 * @param goal the goal that needs it
	 * @throws MojoFailureException if the project lacks it, naming the dependency to add
	 */
	static void requireArtifact(Collection<Artifact> projectArtifacts, String key, String goal)
			throws MojoFailureException {
		if (projectArtifacts.stream().noneMatch((artifact) -> key(artifact).equals(key))) {
			throw new MojoFailureException("The " + goal + " goal runs the generator of " + key
					+ ", which is not among the project's dependencies: add "
					+ "dev.kubereconciler:kube-reconciler-spring-boot-starter to them");
		}
	}

	/**
	 * Run a main class and fail with the exception it ends with.
	 * @param classPath the class path
	 * @param mainClass the class whose {@code main} runs
	 * @param arguments its arguments
	 * @throws MojoFailureException if {@code main} throws: the exception's message, which
	 * names the fix
	 * @throws MojoExecutionException if the JVM cannot be started
	 */
	void run(List<String> classPath, String mainClass, List<String> arguments)
			throws MojoExecutionException, MojoFailureException {
		List<String> commandLine = new ArrayList<>();
		commandLine.add("-cp");
		commandLine.add(String.join(File.pathSeparator, classPath));
		commandLine.add(mainClass);
		commandLine.addAll(arguments);
		List<String> output = new ArrayList<>();
		int exit;
		try {
			// an arguments file, as a project's class path can exceed a command line
			Files.createDirectories(this.argumentsFile.getParent());
			Files.write(this.argumentsFile, commandLine.stream().map(GeneratorFork::quoted).toList());
			Path java = Path.of(System.getProperty("java.home"), "bin", "java");
			this.log.debug("Running " + java + " " + commandLine);
			Process process = new ProcessBuilder(java.toString(), "@" + this.argumentsFile)
				.directory(this.workingDirectory.toFile())
				.redirectErrorStream(true)
				.start();
			try (BufferedReader reader = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				for (String line = reader.readLine(); line != null; line = reader.readLine()) {
					this.log.info(line);
					output.add(line);
				}
			}
			exit = process.waitFor();
		}
		catch (IOException ex) {
			throw new MojoExecutionException("Cannot run " + mainClass + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new MojoExecutionException("Interrupted while " + mainClass + " ran", ex);
		}
		if (exit != 0) {
			String failure = failure(output);
			throw new MojoFailureException((failure != null) ? failure
					: mainClass + " ended with exit code " + exit + "; its output is above");
		}
	}

	/**
	 * Return the message of the innermost exception a failed {@code main} printed, with
	 * the lines that continue it, or {@code null} if it printed none.
	 * @param output the lines the JVM printed
	 * @return the message
	 */
	static @Nullable String failure(List<String> output) {
		int start = -1;
		for (int i = 0; i < output.size(); i++) {
			String line = output.get(i);
			if (line.startsWith(EXCEPTION_IN_MAIN) || (start >= 0 && line.startsWith(CAUSED_BY))) {
				start = i;
			}
		}
		if (start < 0) {
			return null;
		}
		String first = output.get(start);
		first = first.startsWith(CAUSED_BY) ? first.substring(CAUSED_BY.length())
				: first.substring(EXCEPTION_IN_MAIN.length());
		StringBuilder message = new StringBuilder(withoutExceptionType(first));
		for (int i = start + 1; i < output.size() && !output.get(i).startsWith("\tat ")
				&& !output.get(i).startsWith("\t..."); i++) {
			message.append(System.lineSeparator()).append(output.get(i));
		}
		return message.toString();
	}

	// "java.lang.IllegalArgumentException: No class ..." -> "No class ..."
	private static String withoutExceptionType(String line) {
		int colon = line.indexOf(": ");
		return (colon > 0 && !line.substring(0, colon).contains(" ")) ? line.substring(colon + 2) : line;
	}

	private static String key(Artifact artifact) {
		return artifact.getGroupId() + ":" + artifact.getArtifactId();
	}

	private static String quoted(String argument) {
		return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

}
