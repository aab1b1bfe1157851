package dev.kubereconciler.dependent;

import java.util.Objects;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import org.jspecify.annotations.Nullable;

/**
 * When an applied dependent object is ready, JOSDK's ready postcondition: the dependents
 * that depend on it wait until it is.
 *
 * @param <R> the dependent type
 */
@FunctionalInterface
public interface ReadyPostcondition<R extends KubernetesObject> {

	/**
	 * Return why the object is not ready yet.
	 * @param actual the object as the server answered or the cache holds it
	 * @return {@code null} when it is ready, otherwise a short reason for the primary's
	 * {@code Ready} condition
	 */
	@Nullable String notReady(R actual);

	/**
	 * Ready when a predicate holds.
	 * @param <R> the dependent type
	 * @param ready the predicate
	 * @param waitingFor what the object waits for while the predicate is false, such as
	 * {@code "its endpoint"}
	 * @return the readiness
	 */
	static <R extends KubernetesObject> ReadyPostcondition<R> when(Predicate<? super R> ready, String waitingFor) {
		Objects.requireNonNull(ready, "ready must not be null");
		return (actual) -> ready.test(actual) ? null : "waiting for " + waitingFor;
	}

	/**
	 * Ready when a Deployment's controller observed its latest generation and as many
	 * replicas are updated and available as its spec asks for, as
	 * {@code kubectl rollout status} decides.
	 * @return the readiness
	 */
	static ReadyPostcondition<V1Deployment> deploymentAvailable() {
		return (deployment) -> {
			int wanted = (deployment.getSpec() != null && deployment.getSpec().getReplicas() != null)
					? deployment.getSpec().getReplicas() : 1;
			V1DeploymentStatus status = deployment.getStatus();
			Long generation = deployment.getMetadata().getGeneration();
			if (status == null || status.getObservedGeneration() == null
					|| (generation != null && status.getObservedGeneration() < generation)) {
				return "its rollout is not observed yet";
			}
			int updated = Objects.requireNonNullElse(status.getUpdatedReplicas(), 0);
			int available = Objects.requireNonNullElse(status.getAvailableReplicas(), 0);
			if (updated < wanted) {
				return updated + " of " + wanted + " replicas updated";
			}
			if (available < wanted) {
				return available + " of " + wanted + " replicas available";
			}
			return null;
		};
	}

	/**
	 * Ready when a Job has completed: its {@code Complete} condition is true. A failed
	 * Job is never ready, and says so.
	 * @return the readiness
	 */
	static ReadyPostcondition<V1Job> jobComplete() {
		return (job) -> {
			if (job.getStatus() != null && job.getStatus().getConditions() != null) {
				for (V1JobCondition condition : job.getStatus().getConditions()) {
					if ("True".equals(condition.getStatus()) && "Complete".equals(condition.getType())) {
						return null;
					}
					if ("True".equals(condition.getStatus()) && "Failed".equals(condition.getType())) {
						return "the Job failed: " + condition.getMessage();
					}
				}
			}
			return "the Job has not completed";
		};
	}

}
