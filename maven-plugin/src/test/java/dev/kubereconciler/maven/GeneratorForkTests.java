package dev.kubereconciler.maven;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.ArtifactHandler;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link GeneratorFork} running real JVMs: a generator that fails, fails the build with
 * the message that names the fix, and the project's artifacts win over the plugin's.
 */
class GeneratorForkTests {

	@TempDir
	Path workingDirectory;

	@Test
	void aMainThatThrowsFailsTheBuildWithTheInnermostMessage() {
		assertThatExceptionOfType(MojoFailureException.class)
			.isThrownBy(() -> fork().run(List.of(testClasses()), Failing.class.getName(), List.of("the fix")))
			.withMessage("No model: the fix");
	}

	@Test
	void aMainThatEndsWellPassesItsArguments() {
		assertThatNoException()
			.isThrownBy(() -> fork().run(List.of(testClasses()), Succeeding.class.getName(), List.of("a \"b\" c")));
	}

	@Test
	void aJvmThatCannotFindTheMainClassFailsWithItsExitCode() {
		assertThatExceptionOfType(MojoFailureException.class)
			.isThrownBy(() -> fork().run(List.of(testClasses()), "com.example.Missing", List.of()))
			.withMessageContaining("com.example.Missing ended with exit code 1");
	}

	@Test
	void theProjectsArtifactsComeFirstAndThePluginsOnlyWhereTheProjectHasNone() {
		Artifact projectJackson = artifact("tools.jackson.core", "jackson-databind", "3.1.0");
		Artifact pluginJackson = artifact("tools.jackson.core", "jackson-databind", "3.0.0");
		Artifact victools = artifact("com.github.victools", "jsonschema-generator", "5.0.0");
		Artifact plugin = artifact("dev.kubereconciler", "kube-reconciler-maven-plugin", "1.0");

		List<String> classPath = GeneratorFork.classPath(
				List.of("/project/classes", "/repo/jackson-databind-3.1.0.jar"), List.of(projectJackson),
				List.of(plugin, pluginJackson, victools), CrdsMojo.PLUGIN_KEY);

		assertThat(classPath).containsExactly("/project/classes", "/repo/jackson-databind-3.1.0.jar",
				victools.getFile().getAbsolutePath());
	}

	private GeneratorFork fork() {
		return new GeneratorFork(new SystemStreamLog(), this.workingDirectory,
				this.workingDirectory.resolve("fork/java.args"));
	}

	private static Artifact artifact(String group, String id, String version) {
		DefaultArtifact artifact = new DefaultArtifact(group, id, version, "compile", "jar", null, new JarHandler());
		artifact.setFile(Path.of("/repo", id + "-" + version + ".jar").toFile());
		return artifact;
	}

	private static String testClasses() {
		try {
			return Path.of(GeneratorForkTests.class.getProtectionDomain().getCodeSource().getLocation().toURI())
				.toString();
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A jar's handler, as maven-core's {@code DefaultArtifactHandler("jar")} answers.
	 */
	static final class JarHandler implements ArtifactHandler {

		@Override
		public String getExtension() {
			return "jar";
		}

		@Override
		public String getDirectory() {
			return "jars";
		}

		@Override
		public String getClassifier() {
			return null;
		}

		@Override
		public String getPackaging() {
			return "jar";
		}

		@Override
		public boolean isIncludesDependencies() {
			return false;
		}

		@Override
		public String getLanguage() {
			return "java";
		}

		@Override
		public boolean isAddedToClasspath() {
			return true;
		}

	}

	/**
	 * A generator that refuses its input, as Spring Boot wraps a failure in the context.
	 */
	static final class Failing {

		private Failing() {
		}

		public static void main(String[] args) {
			throw new IllegalStateException("Context failed",
					new IllegalArgumentException("No model: " + String.join(" ", args)));
		}

	}

	/**
	 * A generator that checks it got its one argument whole.
	 */
	static final class Succeeding {

		private Succeeding() {
		}

		public static void main(String[] args) {
			if (args.length != 1 || !args[0].equals("a \"b\" c")) {
				throw new IllegalArgumentException(String.join("|", args));
			}
		}

	}

}
