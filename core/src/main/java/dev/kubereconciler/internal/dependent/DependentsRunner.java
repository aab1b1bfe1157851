package dev.kubereconciler.internal.dependent;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.KubernetesObjects;
import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * Runs the dependents of one controller for a primary object: each wanted dependent is
 * applied in {@code dependsOn} order once those it depends on are ready, by server-side
 * apply with the controller as field manager and only when the cached object lacks a
 * field of the desired state; then what this controller applied for the primary and no
 * longer wants is deleted.
 *
 * <p>
 * Every applied object carries the primary's ApplySet id in
 * {@code applyset.kubernetes.io/part-of} and its dependent's name in
 * {@code dependents.kubereconciler.dev/name}, as KEP-3659 marks the members of a set. An
 * object is deleted only when the server says this controller applied it and it belongs
 * to this primary, by owner reference or, where none can reach, by annotation.
 *
 * @param <P> the primary type
 */
final class DependentsRunner<P extends KubernetesObject> {

	private final Dependents<P> dependents;

	private final ReconcileSupport support;

	private final DependentApplier<P> applier;

	private final ReadinessClock readiness;

	private final DependentPruner<P> pruner;

	DependentsRunner(Dependents<P> dependents, String controller, ReconcileSupport support, KubernetesWriter writer,
			boolean hasFinalizer) {
		this.dependents = dependents;
		this.support = support;
		this.applier = new DependentApplier<>(controller, support, writer, hasFinalizer);
		this.readiness = new ReadinessClock(controller, support.ticker(), support.listener());
		this.pruner = new DependentPruner<>(dependents, controller, support, writer);
	}

	/**
	 * Apply, wait for and prune the dependents of a primary object.
	 * @param primary the cached primary, which is not changed
	 * @param context the reconcile context
	 * @return where the dependents stand
	 * @throws DependentFailure if a dependent's function, apply or prune failed
	 */
	DependentsStatus run(P primary, ReconcileContext<P> context) throws DependentFailure {
		String uid = Objects.requireNonNull(primary.getMetadata().getUid(), "primary must have metadata.uid");
		String setId = DependentJson.applySetId(primary);
		Walk walk = new Walk(Caches.metaNamespaceKeyFunc(primary), this.readiness.now());
		for (Dependent<P, ?> dependent : this.dependents.order()) {
			try {
				step(dependent, primary, setId, context, walk);
			}
			catch (Exception ex) {
				throw new DependentFailure(dependent.name(), ex);
			}
		}
		this.pruner.prune(uid, setId, walk.kept, false);
		if (walk.status != null) {
			return walk.status;
		}
		long ready = walk.states.values().stream().filter((state) -> state == State.READY).count();
		return new DependentsStatus(true, null,
				(ready == 1) ? "The dependent is ready" : "All " + ready + " dependents are ready");
	}

	/**
	 * Take one dependent in its turn: skip it while unwanted or waiting for those it
	 * depends on, otherwise apply it and judge its readiness.
	 */
	private void step(Dependent<P, ?> dependent, P primary, String setId, ReconcileContext<P> context, Walk walk)
			throws Exception {
		String name = dependent.name();
		Set<String> dependencies = this.dependents.dependencies(dependent);
		if (dependencies.stream().anyMatch((dependency) -> walk.states.get(dependency) == State.UNWANTED)
				|| !dependent.wanted(copy(primary), context)) {
			walk.states.put(name, State.UNWANTED);
			walk.kept.put(name, (dependent.whenUnwanted() == Dependent.WhenUnwanted.SKIP) ? null : Set.of());
			this.readiness.unwanted(walk.primaryKey, name);
			return;
		}
		if (dependencies.stream().anyMatch((dependency) -> walk.states.get(dependency) != State.READY)) {
			walk.states.put(name, State.WAITING);
			walk.kept.put(name, null);
			return;
		}
		Set<String> keys = new HashSet<>();
		String notReady = applyEach(dependent, primary, setId, context, keys);
		walk.kept.put(name, keys);
		if (notReady == null) {
			walk.states.put(name, State.READY);
			this.readiness.ready(walk.primaryKey, name, walk.now);
			return;
		}
		walk.states.put(name, State.NOT_READY);
		boolean timedOut = this.readiness.notReady(walk.primaryKey, primary, dependent, notReady, walk.now, context);
		if (walk.status == null) {
			walk.status = new DependentsStatus(false, name,
					name + ": " + notReady + (timedOut ? ", not ready after " + dependent.readyTimeout() : ""));
		}
	}

	/**
	 * Apply each desired object of a dependent.
	 * @return why the first object that is not ready is not, or {@code null} when all are
	 */
	private @Nullable String applyEach(Dependent<P, ?> dependent, P primary, String setId, ReconcileContext<P> context,
			Set<String> keys) throws Exception {
		String notReady = null;
		for (KubernetesObject desired : dependent.desired(copy(primary), context)) {
			KubernetesObject actual = this.applier.apply(dependent, desired, primary, setId);
			keys.add(Caches.metaNamespaceKeyFunc(actual));
			if (notReady == null) {
				String reason = dependent.notReady(Objects.requireNonNull(this.support.copy(actual)));
				if (reason != null) {
					notReady = KubernetesObjects.describe(actual) + ": " + reason;
				}
			}
		}
		return notReady;
	}

	/**
	 * Delete the objects of the primary that no owner reference reaches, before its
	 * finalizer goes: garbage collection takes the others.
	 * @param primary the primary being deleted
	 * @throws DependentFailure if a delete failed
	 */
	void cleanUp(P primary) throws DependentFailure {
		String uid = Objects.requireNonNull(primary.getMetadata().getUid());
		this.pruner.prune(uid, DependentJson.applySetId(primary), Map.of(), true);
	}

	/**
	 * Forget what was remembered of a primary object that is gone.
	 * @param primaryKey its {@code namespace/name} key
	 */
	void forget(String primaryKey) {
		this.readiness.forget(primaryKey);
	}

	private P copy(P primary) {
		return Objects.requireNonNull(this.support.copy(primary));
	}

	private enum State {

		READY, NOT_READY, WAITING, UNWANTED

	}

	/**
	 * Where one run stands: each dependent's state, the keys each keeps (all of them for
	 * {@code null}), and the status of the first that is not ready.
	 */
	private static final class Walk {

		private final String primaryKey;

		private final long now;

		private final Map<String, State> states = new HashMap<>();

		private final Map<String, @Nullable Set<String>> kept = new HashMap<>();

		private @Nullable DependentsStatus status;

		Walk(String primaryKey, long now) {
			this.primaryKey = primaryKey;
			this.now = now;
		}

	}

}
