package dev.kubereconciler.test;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.kubereconciler.test.CrdFilesTests.Doohickey;
import dev.kubereconciler.test.CrdFilesTests.Gizmo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link KubernetesTest @KubernetesTest} installs the CRDs a class names, by
 * location and by model class, before the application context starts, and fails a class
 * whose CRD is missing.
 */
@KubernetesTest(crds = "dev/kubereconciler/test/crds/sprockets.yaml", customResources = Gizmo.class)
@SpringBootTest(classes = CustomResourceLister.class, properties = "lists=sprockets,gizmos")
class KubernetesTestNamedCrdsTests {

	@Autowired
	private CustomResourceLister.Listed listed;

	@Test
	void namedLocationsAndModelClassesAreServedBeforeTheContextStarts() {
		assertThat(this.listed.plurals()).containsExactly("sprockets", "gizmos");
	}

	@Test
	void aModelClassWithoutItsCrdFileFailsTheClassNamingTheExpectedFile() {
		TestExecutionSummary summary = Scenarios.run(MissingCrd.class);
		assertThat(summary.getTestsStartedCount()).isZero();
		assertThat(Scenarios.failures(summary)).singleElement()
			.asString()
			.contains("No CRD for " + Doohickey.class.getName()
					+ ": expected META-INF/kubernetes/crds/doohickeys.crds.test.kubereconciler.dev.yaml on the class path");
	}

	@KubernetesTest(customResources = Doohickey.class)
	@EnabledIf(Scenarios.LAUNCHED)
	static class MissingCrd {

		@Test
		void neverRuns() {
		}

	}

}
