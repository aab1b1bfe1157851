package dev.kubereconciler.crd;

import java.util.List;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.kubereconciler.test.KubernetesTest;

/**
 * Every CRD the generator's tests write is accepted and served by the real API server, so
 * that a schema checked by its text in core is also one the server takes.
 */
@KubernetesTest
class GeneratedCrdsAcceptedIntegrationTests {

	ApiClient client;

	static Stream<List<Class<?>>> models() {
		return Stream.of(List.of(Backup.class), List.of(Specimen.class), List.of(CrdGeneratorTests.Snapshot.class),
				List.of(CrdGeneratorTests.GenericSnapshot.class), List.of(CrdGeneratorTests.Untyped.class),
				List.of(PrinterColumnTypeTests.Filtered.class), List.of(MultiVersionCrdTests.DatabaseV1alpha1.class,
						MultiVersionCrdTests.DatabaseV1beta1.class, MultiVersionCrdTests.DatabaseV1.class));
	}

	@ParameterizedTest
	@MethodSource("models")
	void theServerAcceptsAndServesTheCrd(List<Class<?>> versions) {
		// the installer names the CRD and the server's reason when it is refused
		new CrdInstaller(this.client, "generated-crds-tests")
			.install(List.of(CrdRoundTripIntegrationTests.generated(versions.toArray(Class<?>[]::new))));
	}

}
