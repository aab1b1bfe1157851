package dev.kubereconciler.reconcile;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.kubernetes.client.openapi.models.V1Condition;
import org.jspecify.annotations.Nullable;

/**
 * Sets status conditions with apimachinery's {@code meta.SetStatusCondition} rules: a
 * condition keeps its {@code lastTransitionTime} unless its status changes, and the other
 * fields always take the new values.
 */
public final class Conditions {

	private Conditions() {
	}

	/**
	 * Set a condition in a list, adding it or updating the one of the same type, and
	 * record the generation it was computed from.
	 * @param conditions the conditions to change, for example
	 * {@code status.getConditions()}
	 * @param condition the condition's type, status, reason and message; a
	 * {@code lastTransitionTime} on it is used when the status changes, the clock's time
	 * otherwise
	 * @param observedGeneration the {@code metadata.generation} the condition reflects,
	 * or {@code null} to leave it out
	 * @param clock the clock for {@code lastTransitionTime}
	 * @return {@code true} if the list changed
	 */
	public static boolean set(List<V1Condition> conditions, V1Condition condition, @Nullable Long observedGeneration,
			Clock clock) {
		Objects.requireNonNull(condition.getType(), "condition type must not be null");
		OffsetDateTime now = OffsetDateTime.now(clock).truncatedTo(ChronoUnit.SECONDS);
		OffsetDateTime transition = (condition.getLastTransitionTime() != null) ? condition.getLastTransitionTime()
				: now;
		V1Condition existing = find(conditions, condition.getType()).orElse(null);
		if (existing == null) {
			conditions.add(new V1Condition().type(condition.getType())
				.status(condition.getStatus())
				.reason(condition.getReason())
				.message(condition.getMessage())
				.observedGeneration(observedGeneration)
				.lastTransitionTime(transition));
			return true;
		}
		boolean changed = false;
		if (!Objects.equals(existing.getStatus(), condition.getStatus())) {
			existing.setStatus(condition.getStatus());
			existing.setLastTransitionTime(transition);
			changed = true;
		}
		if (!Objects.equals(existing.getReason(), condition.getReason())) {
			existing.setReason(condition.getReason());
			changed = true;
		}
		if (!Objects.equals(existing.getMessage(), condition.getMessage())) {
			existing.setMessage(condition.getMessage());
			changed = true;
		}
		if (!Objects.equals(existing.getObservedGeneration(), observedGeneration)) {
			existing.setObservedGeneration(observedGeneration);
			changed = true;
		}
		return changed;
	}

	/**
	 * Set a condition, using the system clock.
	 * @param conditions the conditions to change
	 * @param condition the condition
	 * @param observedGeneration the generation it reflects, or {@code null}
	 * @return {@code true} if the list changed
	 * @see #set(List, V1Condition, Long, Clock)
	 */
	public static boolean set(List<V1Condition> conditions, V1Condition condition, @Nullable Long observedGeneration) {
		return set(conditions, condition, observedGeneration, Clock.systemUTC());
	}

	/**
	 * Remove the condition of a type.
	 * @param conditions the conditions to change
	 * @param type the condition type
	 * @return {@code true} if the list changed
	 */
	public static boolean remove(List<V1Condition> conditions, String type) {
		return conditions.removeIf((condition) -> type.equals(condition.getType()));
	}

	/**
	 * Find the condition of a type.
	 * @param conditions the conditions, may be {@code null}
	 * @param type the condition type
	 * @return the condition
	 */
	public static Optional<V1Condition> find(@Nullable List<V1Condition> conditions, String type) {
		if (conditions == null) {
			return Optional.empty();
		}
		return conditions.stream().filter((condition) -> type.equals(condition.getType())).findFirst();
	}

	/**
	 * Return whether the condition of a type has status {@code True}.
	 * @param conditions the conditions, may be {@code null}
	 * @param type the condition type
	 * @return whether it is true
	 */
	public static boolean isTrue(@Nullable List<V1Condition> conditions, String type) {
		return find(conditions, type).map((condition) -> "True".equals(condition.getStatus())).orElse(false);
	}

}
