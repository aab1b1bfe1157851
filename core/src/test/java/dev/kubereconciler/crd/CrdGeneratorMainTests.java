package dev.kubereconciler.crd;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link CrdGenerator#main(String[])} called as the Maven plugin's {@code crds} goal and
 * a Gradle {@code JavaExec} task call it: over a folder of compiled classes that holds
 * the models among other classes, or with the models named.
 */
class CrdGeneratorMainTests {

	private static final String BACKUPS = "backups.crd.kubereconciler.dev.yaml";

	private static final String SPECIMENS = "specimens.crd.kubereconciler.dev.yaml";

	@TempDir
	Path classes;

	@TempDir
	Path output;

	@Test
	void writesTheCrdOfEveryAnnotatedClassOfTheFolder() throws Exception {
		copyClasses("Backup", "Specimen", "GenericResource", "CrdGeneratorMainTests");

		CrdGenerator.main(new String[] { "--classes", this.classes.toString(), this.output.toString() });

		assertThat(this.output.resolve(BACKUPS)).content().isEqualTo(new CrdGenerator().yaml(Backup.class));
		assertThat(this.output.resolve(SPECIMENS)).content().isEqualTo(new CrdGenerator().yaml(Specimen.class));
		try (Stream<Path> files = Files.list(this.output)) {
			assertThat(files).hasSize(2);
		}
	}

	@Test
	void includesAndExcludesSelectTheModelsByClassName() throws Exception {
		copyClasses("Backup", "Specimen", "CrdFieldKindsTests");

		CrdGenerator.main(new String[] { "--classes", this.classes.toString(), "--include", "dev.kubereconciler.*.*",
				"--exclude", "**.Specimen", this.output.toString() });

		try (Stream<Path> files = Files.list(this.output)) {
			assertThat(files).containsExactly(this.output.resolve(BACKUPS));
		}
	}

	@Test
	void aFolderWithoutModelsFailsNamingTheAnnotation() throws IOException {
		copyClasses("GenericResource", "CrdGeneratorMainTests");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> CrdGenerator
				.main(new String[] { "--classes", this.classes.toString(), this.output.toString() }))
			.withMessageContaining("No class in " + this.classes)
			.withMessageContaining("annotated with @dev.kubereconciler.model.ResourceCoordinates")
			.withMessageContaining("annotate each custom resource model class with @ResourceCoordinates");
	}

	@Test
	void excludesThatLeaveNoModelFailNamingThem() throws IOException {
		copyClasses("Backup");

		assertThatIllegalArgumentException().isThrownBy(() -> CrdGenerator
			.main(new String[] { "--classes", this.classes.toString(), "--exclude", "dev.**", this.output.toString() }))
			.withMessageContaining("outside the excludes [dev.**]")
			.withMessageContaining("widen the includes and excludes");
	}

	@Test
	void aModelTheGeneratorRefusesFailsNamingItsField() throws IOException {
		copyClasses("Backup", "CrdFieldKindsTests$WithOptional", "CrdFieldKindsTests$OptionalSpec");

		assertThatIllegalArgumentException().isThrownBy(
				() -> CrdGenerator.main(new String[] { "--classes", this.classes.toString(), this.output.toString() }))
			.withMessageContaining("the field " + CrdFieldKindsTests.OptionalSpec.class.getName() + ".note");
		assertThat(this.output).isEmptyDirectory();
	}

	@Test
	void aMissingFolderFailsNamingTheOption() {
		Path missing = this.classes.resolve("missing");

		assertThatIllegalArgumentException()
			.isThrownBy(
					() -> CrdGenerator.main(new String[] { "--classes", missing.toString(), this.output.toString() }))
			.withMessageContaining("--classes " + missing + ": no such folder")
			.withMessageContaining("build/classes/java/main");
	}

	@Test
	void namedModelsNeedNoFolder() throws Exception {
		CrdGenerator.main(new String[] { this.output.toString(), Backup.class.getName() });

		assertThat(this.output.resolve(BACKUPS)).content().isEqualTo(new CrdGenerator().yaml(Backup.class));
	}

	@Test
	void wrongArgumentsFailWithTheUsage() {
		assertThatIllegalArgumentException().isThrownBy(() -> CrdGenerator.main(new String[] { "out" }))
			.withMessageStartingWith("Usage: CrdGenerator --classes");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CrdGenerator.main(new String[] { "--include", "com.example.**", "out", "A" }))
			.withMessageContaining("--classes, which is missing");
		assertThatIllegalArgumentException().isThrownBy(() -> CrdGenerator.main(new String[] { "--classes" }))
			.withMessageStartingWith("--classes needs a value");
	}

	// the class files of this package's compiled test classes, nested classes with them,
	// as a build's output folder holds them
	private void copyClasses(String... names) throws IOException {
		Path compiled = compiledClasses().resolve("dev/kubereconciler/crd");
		Path target = Files.createDirectories(this.classes.resolve("dev/kubereconciler/crd"));
		try (Stream<Path> files = Files.list(compiled)) {
			for (Path file : files.toList()) {
				String name = file.getFileName().toString();
				for (String wanted : names) {
					if (name.equals(wanted + ".class") || name.startsWith(wanted + "$") && !wanted.contains("$")) {
						Files.copy(file, target.resolve(name));
					}
				}
			}
		}
	}

	private static Path compiledClasses() {
		try {
			return Path.of(Backup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
