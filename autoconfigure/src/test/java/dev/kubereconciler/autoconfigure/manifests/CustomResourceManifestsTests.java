package dev.kubereconciler.autoconfigure.manifests;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.crd.CrdGenerator;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.StorageVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CustomResourceManifests}: one file per CRD, whatever the number of its
 * versions, with the conversion webhook a caller gives.
 */
class CustomResourceManifestsTests {

	private static final String GROUP = "manifests.test.kubereconciler.dev";

	private final CrdGenerator generator = new CrdGenerator();

	@Test
	void theVersionsOfOneKindGiveOneFile() {
		Map<String, String> files = CustomResourceManifests
			.crds(List.of(DoohickeyV1alpha1.class, Whatsit.class, DoohickeyV1.class));
		assertThat(files).containsOnlyKeys("crds/doohickeys." + GROUP + ".yaml", "crds/whatsits." + GROUP + ".yaml");
		assertThat(files.keySet()).first().isEqualTo("crds/doohickeys." + GROUP + ".yaml");
		assertThat(files.get("crds/doohickeys." + GROUP + ".yaml"))
			.isEqualTo(this.generator.yaml(List.of(DoohickeyV1.class, DoohickeyV1alpha1.class)))
			.doesNotContain("conversion:");
	}

	@Test
	void aConversionWebhookGivenByCrdNameIsWrittenIntoThatCrdOnly() {
		WebhookClientConfig webhook = WebhookClientConfig.service("ops", "doohickey-operator", "/convert", 443);
		Map<String, String> files = CustomResourceManifests.crds(
				List.of(DoohickeyV1alpha1.class, DoohickeyV1.class, Whatsit.class),
				Map.of("doohickeys." + GROUP, webhook));
		assertThat(files.get("crds/doohickeys." + GROUP + ".yaml"))
			.isEqualTo(this.generator.yaml(List.of(DoohickeyV1.class, DoohickeyV1alpha1.class), webhook))
			.contains("strategy: Webhook");
		assertThat(files.get("crds/whatsits." + GROUP + ".yaml")).isEqualTo(this.generator.yaml(Whatsit.class));
	}

	@Test
	void aConversionWebhookForACrdOfNoCustomResourceIsRefused() {
		WebhookClientConfig webhook = WebhookClientConfig.url("https://example.com/convert");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CustomResourceManifests.crds(List.of(Whatsit.class), Map.of("gizmos." + GROUP, webhook)))
			.withMessageContaining("gizmos." + GROUP);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CustomResourceManifests.crds(List.of(), Map.of("gizmos." + GROUP, webhook)))
			.withMessageContaining("gizmos." + GROUP);
	}

	@Test
	void twoVersionsOfOneCrdWithNoStorageVersionAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CustomResourceManifests.crds(List.of(DoohickeyV1alpha1.class, DoohickeyV1beta1.class)))
			.withMessageContaining("@StorageVersion");
	}

	record Spec(@Nullable String size) {

	}

	record SpecV1(@Nullable Integer sizeGi) {

	}

	@ResourceCoordinates(group = GROUP, version = "v1alpha1", kind = "Doohickey", plural = "doohickeys")
	static class DoohickeyV1alpha1 extends CustomResource<Spec, Void> {

	}

	@ResourceCoordinates(group = GROUP, version = "v1beta1", kind = "Doohickey", plural = "doohickeys")
	static class DoohickeyV1beta1 extends CustomResource<Spec, Void> {

	}

	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Doohickey", plural = "doohickeys")
	@StorageVersion
	static class DoohickeyV1 extends CustomResource<SpecV1, Void> {

	}

	@ResourceCoordinates(group = GROUP, version = "v1", kind = "Whatsit", plural = "whatsits")
	static class Whatsit extends CustomResource<Spec, Void> {

	}

}
