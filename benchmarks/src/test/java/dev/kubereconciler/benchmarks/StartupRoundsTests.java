package dev.kubereconciler.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A smoke pass of the start-up benchmark on the real test API server, 20 objects and one
 * round: the plain jar, Spring AOT with CDS (and its training run) and Java Operator SDK
 * each start, reconcile every ConfigMap and exit, and the bare Spring Boot application
 * lists them; the report has every part of the plain jar's start-up and Spring's steps of
 * our beans; never their speed.
 */
@KubernetesTest
class StartupRoundsTests {

	private static final Path APP = Path.of("startup-app/target/startup-app.jar");

	private static final Path JOSDK = Path.of("startup-josdk/target/startup-josdk.jar");

	private static final Path BARE = Path.of("startup-bare/target/startup-bare.jar");

	KubernetesTestServer server;

	@Test
	void everyConfigurationReconcilesEveryObject(@TempDir Path work) throws Exception {
		assertThat(APP).as("built by the reactor before this module's tests").isRegularFile();
		assertThat(JOSDK).as("built by the reactor before this module's tests").isRegularFile();
		assertThat(BARE).as("built by the reactor before this module's tests").isRegularFile();
		StartupRounds.Settings settings = new StartupRounds.Settings(20, 1,
				List.of("plain", "aot-cds", "josdk", "bare"), APP, JOSDK, BARE, List.of(),
				Path.of(System.getProperty("java.home"), "bin", "java"), null, work);
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		PrintStream original = System.out;
		try {
			System.setOut(new PrintStream(output, true, StandardCharsets.UTF_8));
			new StartupRounds(this.server.kubeconfig(), settings).run();
		}
		finally {
			System.setOut(original);
		}
		String report = output.toString(StandardCharsets.UTF_8);
		original.print(report);
		assertThat(report).doesNotContain("FAILED").contains("trained in");
		for (String configuration : List.of("plain", "aot-cds", "josdk")) {
			assertThat(report)
				.containsPattern("round 1/1  " + configuration + " .* last-first-reconcile .* reconciled 20 of 20");
		}
		assertThat(report).containsPattern("round 1/1  bare .* listed .* reconciled 20 of 20");
		// the parts of the plain jar's start-up, and Spring's steps of our beans
		assertThat(report)
			.containsPattern("\\nplain +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ ")
			.contains("beans:ours")
			.contains("plain jar / bare refresh + list");
		assertThat(work.resolve("aot-cds.jsa")).satisfies((archive) -> assertThat(Files.size(archive)).isPositive());
	}

}
