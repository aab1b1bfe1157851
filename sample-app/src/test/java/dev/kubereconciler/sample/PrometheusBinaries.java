package dev.kubereconciler.sample;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

import static org.assertj.core.api.Assertions.fail;

/**
 * Finds {@code prometheus} and {@code promtool} on {@code PATH}, as an operator's users
 * run them; when either is missing the test is skipped with the fix, or fails with it
 * when {@code CI=true}, as the Kubernetes tests do without their binaries.
 */
final class PrometheusBinaries {

	private PrometheusBinaries() {
	}

	static Path prometheus() {
		return find("prometheus");
	}

	static Path promtool() {
		return find("promtool");
	}

	/**
	 * Run promtool and return what it printed, both streams, with its exit code.
	 * @param stdin what to write to its standard input, or {@code null}
	 * @param arguments its arguments
	 * @return the exit code and the output
	 */
	static Run promtool(@Nullable String stdin, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(promtool().toString()));
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try (var in = process.getOutputStream()) {
			if (stdin != null) {
				in.write(stdin.getBytes(StandardCharsets.UTF_8));
			}
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			fail("%s did not finish within 60 s:%n%s", command, output);
		}
		return new Run(String.join(" ", command), process.exitValue(), output);
	}

	private static Path find(String binary) {
		Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.filter((folder) -> !folder.isEmpty())
			.map((folder) -> Path.of(folder, binary))
			.filter(Files::isExecutable)
			.findFirst();
		if (found.isEmpty()) {
			String fix = "No " + binary + " on PATH; './dev setup' installs Prometheus and promtool "
					+ "(Debian's prometheus package: apt-get install prometheus)";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				fail(fix);
			}
			Assumptions.abort(fix);
		}
		return found.get();
	}

	/**
	 * One run of promtool.
	 *
	 * @param command the command line
	 * @param exitCode its exit code
	 * @param output what it printed
	 */
	record Run(String command, int exitCode, String output) {

		Run assertSucceeded() {
			if (this.exitCode != 0) {
				fail("%s exited with %d:%n%s", this.command, this.exitCode, this.output);
			}
			return this;
		}

	}

}
