package dev.kubereconciler.crd;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.StorageVersion;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generated CRD of two versions on the real API server: found on the class path,
 * installed and served in both versions, stored in the marked one, and an object written
 * in one version read back in the other (conversion {@code None} rewrites only the
 * {@code apiVersion}).
 */
@KubernetesTest
class MultiVersionCrdIntegrationTests {

	private static final String GROUP = "multiversion.crd.kubereconciler.dev";

	private static final String NAME = "flags." + GROUP;

	ApiClient client;

	TestNamespace namespace;

	@TempDir
	Path classPath;

	private Crd crd;

	@BeforeEach
	void installTheGeneratedCrdFromTheClassPath() throws IOException {
		new CrdGenerator().write(this.classPath.resolve(CrdFiles.FOLDER), List.of(FlagV1alpha1.class, FlagV1.class));
		try (URLClassLoader loader = new URLClassLoader(new URL[] { this.classPath.toUri().toURL() }, null)) {
			List<Crd> crds = new CrdFiles(loader).find(List.of(), List.of());
			assertThat(crds).singleElement().satisfies((found) -> assertThat(found.name()).isEqualTo(NAME));
			this.crd = crds.get(0);
		}
		new CrdInstaller(this.client, "multi-version-crd-tests").install(List.of(this.crd));
	}

	@Test
	void theCrdIsWaitedForByItsStorageVersionAndStoresOnlyIt() {
		assertThat(this.crd.version()).isEqualTo("v1");
		JsonObject installed = new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions",
				this.client)
			.get(NAME)
			.getObject()
			.getRaw();
		List<String> versions = new ArrayList<>();
		installed.getAsJsonObject("spec")
			.getAsJsonArray("versions")
			.forEach((version) -> versions.add(version.getAsJsonObject().get("name").getAsString() + " storage="
					+ version.getAsJsonObject().get("storage").getAsBoolean()));
		assertThat(versions).containsExactly("v1 storage=true", "v1alpha1 storage=false");
		assertThat(installed.getAsJsonObject("status").getAsJsonArray("storedVersions").toString())
			.isEqualTo("[\"v1\"]");
	}

	@Test
	void anObjectCreatedInOneVersionIsReadInTheOther() {
		DynamicKubernetesApi alpha = new DynamicKubernetesApi(GROUP, "v1alpha1", "flags", this.client);
		DynamicKubernetesApi ga = new DynamicKubernetesApi(GROUP, "v1", "flags", this.client);
		JsonObject raw = JsonParser.parseString("""
				{"apiVersion": "%s/v1alpha1", "kind": "Flag", "metadata": {"name": "dark-mode", "namespace": "%s"},
				 "spec": {"enabled": true, "owner": "ui"}}""".formatted(GROUP, this.namespace.name()))
			.getAsJsonObject();
		KubernetesApiResponse<DynamicKubernetesObject> created = alpha.create(new DynamicKubernetesObject(raw));
		assertThat(created.isSuccess()).as("created: %s", created.getStatus()).isTrue();
		KubernetesApiResponse<DynamicKubernetesObject> read = ga.get(this.namespace.name(), "dark-mode");
		assertThat(read.isSuccess()).as("read: %s", read.getStatus()).isTrue();
		JsonObject object = read.getObject().getRaw();
		assertThat(object.get("apiVersion").getAsString()).isEqualTo(GROUP + "/v1");
		assertThat(object.getAsJsonObject("spec").toString()).isEqualTo("{\"enabled\":true,\"owner\":\"ui\"}");
	}

	record Spec(@Nullable Boolean enabled, @Nullable String owner) {

	}

	record Status(@Nullable Boolean applied) {

	}

	@ResourceCoordinates(group = GROUP, version = "v1alpha1", kind = "Flag", plural = "flags")
	static class FlagV1alpha1 extends CustomResource<Spec, Void> {

	}

	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Flag", plural = "flags")
	@StorageVersion
	static class FlagV1 extends CustomResource<Spec, Status> {

	}

}
