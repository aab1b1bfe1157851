package dev.kubereconciler.reconcile;

import java.util.List;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link CustomResource}: its type metadata comes from the annotation, its spec
 * and status may be records, and it compares and prints by value.
 */
class CustomResourceTests {

	@Test
	void apiVersionAndKindComeFromTheAnnotation() {
		Backup backup = new Backup();
		assertThat(backup.getApiVersion()).isEqualTo("example.com/v1");
		assertThat(backup.getKind()).isEqualTo("Backup");
		assertThat(new CoreGroupThing().getApiVersion()).isEqualTo("v1");
	}

	@Test
	void aSubclassWithoutTheAnnotationIsRefusedNamingTheFix() {
		assertThatIllegalStateException().isThrownBy(Unannotated::new)
			.withMessageContaining(Unannotated.class.getName())
			.withMessageContaining("@ResourceCoordinates(group, version, kind, plural)");
	}

	@Test
	void recordSpecAndStatusReadAndWriteAsClientJavaJson() {
		Backup backup = new JSON().deserialize("""
				{"apiVersion":"example.com/v1","kind":"Backup","metadata":{"name":"nightly","namespace":"ops"},
				 "spec":{"schedule":"0 3 * * *","targets":["db","files"]},"status":{"phase":"Ready"}}
				""", Backup.class);
		assertThat(backup.getMetadata().getName()).isEqualTo("nightly");
		assertThat(backup.getSpec()).isEqualTo(new Spec("0 3 * * *", List.of("db", "files")));
		assertThat(backup.getStatus()).isEqualTo(new Status("Ready"));
		Backup again = new JSON().deserialize(new JSON().serialize(backup), Backup.class);
		assertThat(again).isEqualTo(backup).hasSameHashCodeAs(backup);
	}

	@Test
	void equalsComparesEveryPartAndToStringShowsThem() {
		Backup one = backup("nightly", "Ready");
		assertThat(one).isEqualTo(backup("nightly", "Ready")).hasSameHashCodeAs(backup("nightly", "Ready"));
		assertThat(one).isNotEqualTo(backup("nightly", "Failed"))
			.isNotEqualTo(backup("weekly", "Ready"))
			.isNotEqualTo(null);
		assertThat(one.toString()).startsWith("Backup{apiVersion=example.com/v1, kind=Backup, metadata=")
			.contains("name: nightly")
			.contains("spec=Spec[schedule=0 3 * * *, targets=[db]]")
			.endsWith("status=Status[phase=Ready]}");
	}

	private static Backup backup(String name, String phase) {
		Backup backup = new Backup();
		backup.setMetadata(new V1ObjectMeta().name(name));
		backup.setSpec(new Spec("0 3 * * *", List.of("db")));
		backup.setStatus(new Status(phase));
		return backup;
	}

	@ResourceCoordinates(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<Spec, Status> {

	}

	@ResourceCoordinates(group = "", version = "v1", kind = "Thing", plural = "things")
	static class CoreGroupThing extends CustomResource<Spec, Status> {

	}

	static class Unannotated extends CustomResource<Spec, Status> {

	}

	record Spec(String schedule, List<String> targets) {
	}

	record Status(String phase) {
	}

}
