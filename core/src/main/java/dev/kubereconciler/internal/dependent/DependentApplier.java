package dev.kubereconciler.internal.dependent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;
import dev.kubereconciler.internal.context.ControllerReferences;
import dev.kubereconciler.reconcile.TerminalReconcileException;

import static dev.kubereconciler.reconcile.KubernetesObjects.describe;

/**
 * Applies one desired object of a dependent: stamps it as a member of the primary's
 * ApplySet, owned by the primary where an owner reference can reach it, then applies it
 * by server-side apply with the controller as field manager, unless the cached object
 * already holds every field of the desired state.
 *
 * @param <P> the primary type
 */
final class DependentApplier<P extends KubernetesObject> {

	private final String controller;

	private final ReconcileSupport support;

	private final KubernetesWriter writer;

	private final ResourceScopes scopes;

	private final boolean hasFinalizer;

	DependentApplier(String controller, ReconcileSupport support, KubernetesWriter writer, boolean hasFinalizer) {
		this.controller = controller;
		this.support = support;
		this.writer = writer;
		this.scopes = new ResourceScopes(support.apiClient());
		this.hasFinalizer = hasFinalizer;
	}

	/**
	 * Apply a desired object unless the cached one already holds it.
	 * @param dependent the dependent whose function returned it
	 * @param desired the desired object, which this stamps
	 * @param primary the cached primary
	 * @param setId the primary's ApplySet id
	 * @return the object as the server holds it
	 * @throws Exception if the object cannot be owned or the apply failed
	 */
	KubernetesObject apply(Dependent<P, ?> dependent, KubernetesObject desired, P primary, String setId)
			throws Exception {
		KubernetesObject actual = stamp(dependent, desired, primary, setId);
		return applyUnlessCovered(dependent, desired, actual);
	}

	/**
	 * Give the desired object its namespace, the ApplySet's labels and its owner: a
	 * controller owner reference to the primary, or, where none can reach, the primary's
	 * uid in an annotation.
	 * @return the cached object of the same key, or {@code null}
	 */
	private @Nullable KubernetesObject stamp(Dependent<P, ?> dependent, KubernetesObject desired, P primary,
			String setId) throws Exception {
		V1ObjectMeta metadata = desired.getMetadata();
		if (metadata == null || metadata.getName() == null) {
			throw new IllegalArgumentException(
					"Dependent '" + dependent.name() + "' returned an object without metadata.name");
		}
		ResourceType type = ResourceType.of(desired.getClass());
		String primaryNamespace = primary.getMetadata().getNamespace();
		if (this.scopes.isNamespaced(type)) {
			if (metadata.getNamespace() == null) {
				if (primaryNamespace == null) {
					throw new IllegalArgumentException("Dependent '" + dependent.name() + "' returned "
							+ describe(desired) + " without a namespace, which the cluster-scoped " + describe(primary)
							+ " cannot lend it");
				}
				metadata.setNamespace(primaryNamespace);
			}
		}
		else {
			metadata.setNamespace(null);
		}
		boolean ownable = primaryNamespace == null || primaryNamespace.equals(metadata.getNamespace());
		// the function may have built them with Map.of
		metadata.setLabels(new LinkedHashMap<>(Objects.requireNonNullElse(metadata.getLabels(), Map.of())));
		metadata.setAnnotations(new LinkedHashMap<>(Objects.requireNonNullElse(metadata.getAnnotations(), Map.of())));
		metadata.putLabelsItem(DependentLabels.PART_OF, setId);
		metadata.putLabelsItem(DependentLabels.DEPENDENT, dependent.name());
		String key = Caches.metaNamespaceKeyFunc(desired);
		KubernetesObject actual = this.support.views().require(desired.getClass()).get(key);
		if (ownable) {
			// the server's version tells whether another controller holds the object
			ControllerReferences.checkNotOwnedByAnother(primary, actual);
			ControllerReferences.set(primary, desired);
		}
		else {
			if (!this.hasFinalizer) {
				throw new TerminalReconcileException("Dependent '" + dependent.name() + "' applies " + describe(desired)
						+ ", which no owner reference from " + describe(primary)
						+ " can reach, so garbage collection would leave it behind: give controller '" + this.controller
						+ "' a finalizer, whose cleanup then deletes it");
			}
			metadata.putAnnotationsItem(DependentLabels.OWNER_UID,
					Objects.requireNonNull(primary.getMetadata().getUid()));
			metadata.putAnnotationsItem(DependentLabels.OWNER, Caches.metaNamespaceKeyFunc(primary));
		}
		return actual;
	}

	/**
	 * Apply the stamped object, unless the cached one was applied with the same desired
	 * state and still holds every field of it.
	 */
	private KubernetesObject applyUnlessCovered(Dependent<P, ?> dependent, KubernetesObject desired,
			@Nullable KubernetesObject actual) throws Exception {
		DependentJson json = DependentJson.of(desired, this.writer);
		boolean sameDesire = actual != null && json.appliedTo(actual);
		if (actual != null && sameDesire && json.coveredBy(actual)) {
			this.support.listener().dependentApplied(this.controller, dependent.name(), false, false);
			return actual;
		}
		// forced: the controller's fields are its own, whoever changed them since
		KubernetesObject applied = this.writer.apply(desired, json.body(), true);
		this.support.views().written(applied);
		boolean changed = actual == null || !Objects.equals(actual.getMetadata().getResourceVersion(),
				applied.getMetadata().getResourceVersion());
		this.support.listener().dependentApplied(this.controller, dependent.name(), changed, sameDesire && changed);
		return applied;
	}

}
