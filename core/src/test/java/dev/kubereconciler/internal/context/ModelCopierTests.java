package dev.kubereconciler.internal.context;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ModelCopier}.
 */
class ModelCopierTests {

	private final ModelCopier copier = new ModelCopier();

	@Test
	void copyEqualsTheOriginalAndSharesNoMutablePart() {
		V1ConfigMap original = new V1ConfigMap()
			.metadata(new V1ObjectMeta().name("settings")
				.namespace("default")
				.labels(Map.of("app", "web"))
				.finalizers(List.of("example.com/cleanup"))
				.creationTimestamp(OffsetDateTime.parse("2026-01-02T03:04:05Z")))
			.data(Map.of("color", "blue"))
			.binaryData(Map.of("blob", new byte[] { 1, 2, 3 }));
		V1ConfigMap copy = this.copier.copy(original);
		// byte arrays compare by identity in the model's equals: compare field by field
		assertThat(copy).isNotSameAs(original).usingRecursiveComparison().isEqualTo(original);
		assertThat(copy.getMetadata()).isNotSameAs(original.getMetadata());
		assertThat(copy.getBinaryData().get("blob")).isNotSameAs(original.getBinaryData().get("blob"))
			.containsExactly(1, 2, 3);
		copy.getMetadata().getLabels().put("app", "changed");
		copy.getMetadata().getFinalizers().clear();
		copy.getData().put("size", "large");
		copy.getBinaryData().get("blob")[0] = 9;
		assertThat(original.getMetadata().getLabels()).containsExactly(Map.entry("app", "web"));
		assertThat(original.getMetadata().getFinalizers()).containsExactly("example.com/cleanup");
		assertThat(original.getData()).containsOnlyKeys("color");
		assertThat(original.getBinaryData().get("blob")).containsExactly(1, 2, 3);
	}

	@Test
	void copiesNestedModelsAndSharesImmutableValues() {
		Quantity cpu = Quantity.fromString("250m");
		V1Deployment original = new V1Deployment().metadata(new V1ObjectMeta().name("web"))
			.spec(new V1DeploymentSpec().replicas(3)
				.template(new V1PodTemplateSpec().spec(new V1PodSpec().addContainersItem(new V1Container().name("app")
					.image("nginx")
					.resources(new V1ResourceRequirements().requests(Map.of("cpu", cpu)))))));
		V1Deployment copy = this.copier.copy(original);
		assertThat(copy).isEqualTo(original);
		V1Container container = copy.getSpec().getTemplate().getSpec().getContainers().get(0);
		assertThat(container).isNotSameAs(original.getSpec().getTemplate().getSpec().getContainers().get(0));
		assertThat(container.getResources().getRequests().get("cpu")).isSameAs(cpu);
		container.setImage("httpd");
		assertThat(original.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("nginx");
		assertThat(this.copier.copy(new IntOrString(8080))).isEqualTo(new IntOrString(8080));
	}

	@Test
	void copiesACustomResourceWithRecordSpecAndStatus() {
		Backup original = new Backup();
		original.setMetadata(new V1ObjectMeta().name("nightly").labels(new HashMap<>(Map.of("app", "db"))));
		original.setSpec(new Spec("0 3 * * *", new ArrayList<>(List.of("db")), new Window(2, true)));
		original.setStatus(new Status("Ready", new HashMap<>(Map.of("db", 7L))));
		Backup copy = this.copier.copy(original);
		assertThat(copy).isNotSameAs(original).isEqualTo(original);
		assertThat(copy.getApiVersion()).isEqualTo("example.com/v1");
		assertThat(copy.getSpec()).isNotSameAs(original.getSpec());
		assertThat(copy.getSpec().window()).isNotSameAs(original.getSpec().window());
		copy.getSpec().targets().add("files");
		copy.getStatus().sizes().put("files", 3L);
		copy.getMetadata().getLabels().put("app", "changed");
		assertThat(original.getSpec().targets()).containsExactly("db");
		assertThat(original.getStatus().sizes()).containsOnlyKeys("db");
		assertThat(original.getMetadata().getLabels()).containsEntry("app", "db");
	}

	@Test
	void classWithoutANoArgumentConstructorIsRefusedClearly() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.copier.copy(new NoDefault("x")))
			.withMessageContaining(NoDefault.class.getName())
			.withMessageContaining("no-argument constructor");
	}

	@ResourceCoordinates(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<Spec, Status> {

	}

	record Spec(String schedule, List<String> targets, Window window) {
	}

	record Window(int hours, boolean weekends) {
	}

	record Status(String phase, Map<String, Long> sizes) {
	}

	static final class NoDefault {

		private final String value;

		NoDefault(String value) {
			this.value = value;
		}

	}

}
