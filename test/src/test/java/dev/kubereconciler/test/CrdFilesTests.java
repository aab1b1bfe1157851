package dev.kubereconciler.test;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link CrdFiles}, which finds CRDs on the class path.
 */
class CrdFilesTests {

	private static final String GROUP = "crds.test.kubereconciler.dev";

	private final CrdFiles onTestClassPath = new CrdFiles(getClass().getClassLoader());

	@TempDir
	Path temp;

	@Test
	void withNothingNamedFindsEveryYamlFileOfTheDefaultFolder() {
		assertThat(names(this.onTestClassPath.find(List.of(), List.of()))).containsExactly("gadgets." + GROUP,
				"gizmos." + GROUP);
	}

	@Test
	void findsTheDefaultFolderInAJarIgnoringOtherFilesAndSubfolders() throws IOException {
		Path jar = this.temp.resolve("crds.jar");
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
			// folders have entries of their own, as Maven and Gradle write them
			for (String folder : List.of("META-INF/", "META-INF/kubernetes/", "META-INF/kubernetes/crds/",
					"META-INF/kubernetes/crds/old/")) {
				out.putNextEntry(new JarEntry(folder));
				out.closeEntry();
			}
			for (Map.Entry<String, String> entry : layout().entrySet()) {
				out.putNextEntry(new JarEntry(entry.getKey()));
				out.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
				out.closeEntry();
			}
		}
		assertThat(names(findDefaultsIn(jar.toUri().toURL()))).containsExactly("alphas." + GROUP, "betas." + GROUP);
	}

	@Test
	void findsTheDefaultFolderInADirectoryIgnoringOtherFilesAndSubfolders() throws IOException {
		for (Map.Entry<String, String> entry : layout().entrySet()) {
			Path file = this.temp.resolve(entry.getKey());
			Files.createDirectories(file.getParent());
			Files.writeString(file, entry.getValue());
		}
		assertThat(names(findDefaultsIn(this.temp.toUri().toURL()))).containsExactly("alphas." + GROUP,
				"betas." + GROUP);
	}

	@Test
	void findsANamedFileWithOrWithoutAClasspathPrefix() {
		assertThat(names(this.onTestClassPath.find(List.of("classpath:/dev/kubereconciler/test/crds/sprockets.yaml"),
				List.of())))
			.containsExactly("sprockets." + GROUP);
		List<Crd> crds = this.onTestClassPath.find(List.of("dev/kubereconciler/test/crds/*.yaml"), List.of());
		assertThat(crds).singleElement().satisfies((crd) -> {
			assertThat(crd.group()).isEqualTo(GROUP);
			assertThat(crd.version()).isEqualTo("v1");
			assertThat(crd.plural()).isEqualTo("sprockets");
			assertThat(crd.source()).endsWith("dev/kubereconciler/test/crds/sprockets.yaml");
		});
	}

	@Test
	void aMissingNamedFileFailsNamingIt() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.onTestClassPath.find(List.of("crds/missing.yaml"), List.of()))
			.withMessage("No CRD file crds/missing.yaml on the class path");
	}

	@Test
	void findsTheCrdOfAModelClassAloneWhereItsCoordinatesPlaceIt() {
		assertThat(CrdFiles.location(Gizmo.class)).isEqualTo("META-INF/kubernetes/crds/gizmos." + GROUP + ".yaml");
		assertThat(names(this.onTestClassPath.find(List.of(), List.of(Gizmo.class))))
			.containsExactly("gizmos." + GROUP);
	}

	@Test
	void aModelClassWithoutItsCrdFileFailsNamingTheExpectedFile() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.onTestClassPath.find(List.of(), List.of(Doohickey.class)))
			.withMessage("No CRD for " + Doohickey.class.getName() + ": expected META-INF/kubernetes/crds/doohickeys."
					+ GROUP + ".yaml on the class path");
	}

	@Test
	void aClassWithoutKubernetesResourceIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.onTestClassPath.find(List.of(), List.of(String.class)))
			.withMessage("java.lang.String is not annotated with @ResourceCoordinates, so its CRD cannot be found");
	}

	@Test
	void aFileOfSeveralDocumentsGivesEachCrdAndAnotherKindIsRefusedNamingTheFile() throws IOException {
		Path folder = this.temp.resolve("crds");
		Files.createDirectories(folder);
		Files.writeString(folder.resolve("two.yaml"), crd("alphas") + "---\n" + crd("betas"));
		Files.writeString(folder.resolve("other.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
		try (URLClassLoader loader = new URLClassLoader(new URL[] { this.temp.toUri().toURL() }, null)) {
			CrdFiles definitions = new CrdFiles(loader);
			assertThat(names(definitions.find(List.of("crds/two.yaml"), List.of()))).containsExactly("alphas." + GROUP,
					"betas." + GROUP);
			assertThatIllegalStateException().isThrownBy(() -> definitions.find(List.of("crds/other.yaml"), List.of()))
				.withMessageStartingWith("Could not read the CRD file " + folder.resolve("other.yaml").toUri().toURL())
				.withMessageEndingWith("a CustomResourceDefinition was expected, not kind 'ConfigMap'");
		}
	}

	private static List<Crd> findDefaultsIn(URL root) throws IOException {
		try (URLClassLoader loader = new URLClassLoader(new URL[] { root }, null)) {
			return new CrdFiles(loader).find(List.of(), List.of());
		}
	}

	private static Map<String, String> layout() {
		return Map.of("META-INF/kubernetes/crds/betas." + GROUP + ".yaml", crd("betas"),
				"META-INF/kubernetes/crds/alphas." + GROUP + ".yaml", crd("alphas"),
				"META-INF/kubernetes/crds/README.md", "not a CRD",
				"META-INF/kubernetes/crds/old/gammas." + GROUP + ".yaml", crd("gammas"));
	}

	private static String crd(String plural) {
		return """
				apiVersion: apiextensions.k8s.io/v1
				kind: CustomResourceDefinition
				metadata:
				  name: %1$s.%2$s
				spec:
				  group: %2$s
				  names:
				    kind: Thing
				    plural: %1$s
				  versions:
				    - name: v1beta1
				      served: false
				    - name: v1
				      served: true
				""".formatted(plural, GROUP);
	}

	private static List<String> names(List<Crd> crds) {
		return crds.stream().map(Crd::name).toList();
	}

	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Gizmo", plural = "gizmos")
	static class Gizmo {

	}

	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Doohickey", plural = "doohickeys")
	static class Doohickey {

	}

}
