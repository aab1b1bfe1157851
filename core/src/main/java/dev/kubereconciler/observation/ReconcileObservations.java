package dev.kubereconciler.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Observes each reconcile of a manager's controllers in an {@link ObservationRegistry}:
 * give it to the manager with {@code ManagerBuilder.observations(...)}. While the
 * registry is a no-op one (no handler registered), a worker does not create an
 * observation at all.
 */
public final class ReconcileObservations {

	private static final ReconcileObservationConvention DEFAULT_CONVENTION = new DefaultReconcileObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable ReconcileObservationConvention convention;

	private ReconcileObservations(ObservationRegistry registry, @Nullable ReconcileObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	/**
	 * Observe reconciles in this registry with the
	 * {@link DefaultReconcileObservationConvention}.
	 * @param registry the registry
	 * @return the observations
	 */
	public static ReconcileObservations of(ObservationRegistry registry) {
		return new ReconcileObservations(registry, null);
	}

	/**
	 * Return observations that use this convention instead of the default.
	 * @param convention the convention, or {@code null} for the default
	 * @return the observations
	 */
	public ReconcileObservations withConvention(@Nullable ReconcileObservationConvention convention) {
		return new ReconcileObservations(this.registry, convention);
	}

	/**
	 * Return whether nothing would observe a reconcile now, so that a worker skips the
	 * observation.
	 * @return whether the registry is a no-op one
	 */
	public boolean isOff() {
		return this.registry.isNoop();
	}

	/**
	 * Start the observation of one reconcile and make it the current one on this thread
	 * until {@link Started#stop()}, so that the API requests the reconcile makes become
	 * its children.
	 * @param controller the controller's name
	 * @param request the key
	 * @param trigger what queued the key
	 * @return the started observation
	 */
	public Started start(String controller, Request request, Trigger trigger) {
		ReconcileObservationContext context = new ReconcileObservationContext(controller, request, trigger);
		Observation observation = ReconcileObservationDocumentation.RECONCILE
			.observation(this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
			.start();
		return new Started(observation, context, observation.openScope());
	}

	/**
	 * The observation of one running reconcile, in scope on the worker's thread.
	 */
	public static final class Started {

		private final Observation observation;

		private final ReconcileObservationContext context;

		private final Observation.Scope scope;

		private Started(Observation observation, ReconcileObservationContext context, Observation.Scope scope) {
			this.observation = observation;
			this.context = context;
			this.scope = scope;
		}

		/**
		 * Record how the reconcile ended.
		 * @param outcome the outcome
		 * @param error what the reconcile threw, if anything
		 */
		public void ended(ReconcileOutcome outcome, @Nullable Throwable error) {
			this.context.setOutcome(outcome);
			if (error != null) {
				this.observation.error(error);
			}
		}

		/**
		 * Close the scope and stop the observation; a reconcile that never reached
		 * {@link #ended} (a listener or the worker itself failed) counts as an error.
		 */
		public void stop() {
			if (this.context.getOutcome() == null) {
				this.context.setOutcome(ReconcileOutcome.ERROR);
			}
			this.scope.close();
			this.observation.stop();
		}

	}

}
