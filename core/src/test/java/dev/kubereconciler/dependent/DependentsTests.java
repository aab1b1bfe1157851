package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The declaration of dependents: names, order, cycles, overrides and the built-in
 * readiness checks.
 */
class DependentsTests {

	@Test
	void theOrderPutsEachDependentAfterThoseItDependsOnAndKeepsDeclarationOrderOtherwise() {
		Dependents<V1Secret> dependents = Dependents
			.of(List.of(dependent("service", "deployment"), dependent("deployment", "config", "secret"),
					dependent("config"), dependent("secret"), dependent("workers")));
		assertThat(dependents.order()).extracting(Dependent::name)
			.containsExactly("config", "secret", "deployment", "service", "workers");
	}

	@Test
	void aCycleIsRefusedNamingIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Dependents.of(List.of(dependent("config"), dependent("a", "c", "config"),
					dependent("b", "a"), dependent("c", "b"))))
			.withMessage("The dependents' dependsOn has a cycle: a -> c -> b -> a; a dependent cannot wait, "
					+ "directly or not, for itself");
		assertThatIllegalArgumentException().isThrownBy(() -> Dependents.of(List.of(dependent("self", "self"))))
			.withMessageContaining("self -> self");
	}

	@Test
	void aCycleFailsTheDefinitionOfTheController() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ControllerDefinition.builder(V1Secret.class)
				.dependent(dependent("a", "b"))
				.dependent(dependent("b", "a"))
				.reconcile((secret, context) -> Result.done()))
			.withMessageContaining("a -> b -> a");
	}

	@Test
	void anUnknownDependencyOrATakenNameIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Dependents.of(List.of(dependent("deployment", "config"))))
			.withMessage("Dependent 'deployment' depends on 'config', which is not a dependent of this controller; "
					+ "its dependents are [deployment]");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Dependents.of(List.of(dependent("config"), dependent("config"))))
			.withMessageContaining("Two dependents are named 'config'");
	}

	@Test
	void aNameMustBeALabelValue() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Dependent.of("Config_Map", V1ConfigMap.class, (secret, context) -> new V1ConfigMap()))
			.withMessageContaining("must be a DNS label");
	}

	@Test
	void aDependentTurnedOffLeavesTheOrderAndNoLongerHoldsUpThoseThatDependOnIt() {
		Dependents<V1Secret> dependents = Dependents.of(List.of(dependent("config"), dependent("deployment", "config")))
			.override("config", false, null);
		assertThat(dependents.order()).extracting(Dependent::name).containsExactly("deployment");
		assertThat(dependents.dependencies(dependents.order().get(0))).isEmpty();
		assertThat(dependents.all()).extracting(Dependent::name).containsExactly("config", "deployment");
		assertThat(dependents.types()).containsExactly(V1ConfigMap.class);
	}

	@Test
	void anOverrideChangesTheReadyTimeoutAndRefusesAnUnknownName() {
		Dependents<V1Secret> dependents = Dependents.of(List.of(dependent("config")));
		assertThat(dependents.order().get(0).readyTimeout()).isEqualTo(Dependent.DEFAULT_READY_TIMEOUT);
		assertThat(dependents.override("config", null, Duration.ofSeconds(30)).order().get(0).readyTimeout())
			.isEqualTo(Duration.ofSeconds(30));
		assertThatIllegalArgumentException().isThrownBy(() -> dependents.override("confg", true, null))
			.withMessage("No dependent is named 'confg'; the dependents are [config]");
	}

	@Test
	void aDeploymentIsReadyOnceItsControllerObservedItAndEveryReplicaIsUpdatedAndAvailable() {
		ReadyPostcondition<V1Deployment> readiness = ReadyPostcondition.deploymentAvailable();
		V1Deployment deployment = new V1Deployment().metadata(new V1ObjectMeta().generation(2L))
			.spec(new V1DeploymentSpec().replicas(3));
		assertThat(readiness.notReady(deployment)).isEqualTo("its rollout is not observed yet");
		deployment.status(new V1DeploymentStatus().observedGeneration(1L).updatedReplicas(3).availableReplicas(3));
		assertThat(readiness.notReady(deployment)).isEqualTo("its rollout is not observed yet");
		deployment.status(new V1DeploymentStatus().observedGeneration(2L).updatedReplicas(2).availableReplicas(2));
		assertThat(readiness.notReady(deployment)).isEqualTo("2 of 3 replicas updated");
		deployment.getStatus().updatedReplicas(3);
		assertThat(readiness.notReady(deployment)).isEqualTo("2 of 3 replicas available");
		deployment.getStatus().availableReplicas(3);
		assertThat(readiness.notReady(deployment)).isNull();
	}

	@Test
	void aJobIsReadyOnceCompleteAndAFailedJobSaysSo() {
		ReadyPostcondition<V1Job> readiness = ReadyPostcondition.jobComplete();
		V1Job job = new V1Job().metadata(new V1ObjectMeta());
		assertThat(readiness.notReady(job)).isEqualTo("the Job has not completed");
		job.status(new V1JobStatus()
			.conditions(List.of(new V1JobCondition().type("Failed").status("True").message("BackoffLimitExceeded"))));
		assertThat(readiness.notReady(job)).isEqualTo("the Job failed: BackoffLimitExceeded");
		job.status(new V1JobStatus().conditions(List.of(new V1JobCondition().type("Complete").status("True"))));
		assertThat(readiness.notReady(job)).isNull();
	}

	@Test
	void aPredicateSaysWhatTheObjectWaitsFor() {
		ReadyPostcondition<V1ConfigMap> readiness = ReadyPostcondition
			.when((configMap) -> configMap.getData() != null && configMap.getData().containsKey("a"), "its data");
		assertThat(readiness.notReady(new V1ConfigMap())).isEqualTo("waiting for its data");
		assertThat(readiness.notReady(new V1ConfigMap().data(Map.of("a", "b")))).isNull();
	}

	private static Dependent<V1Secret, V1ConfigMap> dependent(String name, String... dependsOn) {
		return Dependent.of(name, V1ConfigMap.class, (secret, context) -> new V1ConfigMap(),
				(options) -> options.dependsOn(dependsOn));
	}

}
