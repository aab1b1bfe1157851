package dev.kubereconciler.internal.dependent;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.context.KubernetesWriter;
import dev.kubereconciler.internal.context.ReconcileSupport;
import dev.kubereconciler.reconcile.AlreadyOwnedException;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.time.Ticker;

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
public final class DependentsRunner<P extends KubernetesObject> {

	private static final String PART_OF = DependentLabels.PART_OF;

	private static final String DEPENDENT = DependentLabels.DEPENDENT;

	private static final String DESIRED_HASH = DependentLabels.DESIRED_HASH;

	private static final String OWNER_UID = DependentLabels.OWNER_UID;

	private final Dependents<P> dependents;

	private final String controller;

	private final ReconcileSupport support;

	private final KubernetesWriter writer;

	private final ResourceScopes scopes;

	private final boolean hasFinalizer;

	private final Ticker ticker;

	// primary key and dependent name -> when a reconcile first found it not ready
	private final Map<String, Long> notReadySince = new ConcurrentHashMap<>();

	// the same keys, once a warning Event said the dependent timed out
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private final DependentPruner<P> pruner;

	public DependentsRunner(Dependents<P> dependents, String controller, ReconcileSupport support,
			KubernetesWriter writer, boolean hasFinalizer) {
		this.dependents = dependents;
		this.controller = controller;
		this.support = support;
		this.writer = writer;
		this.scopes = new ResourceScopes(support.apiClient());
		this.hasFinalizer = hasFinalizer;
		this.ticker = support.ticker();
		this.pruner = new DependentPruner<>(dependents, controller, support, writer);
	}

	/**
	 * Apply, wait for and prune the dependents of a primary object.
	 * @param primary the cached primary, which is not changed
	 * @param context the reconcile context
	 * @return where the dependents stand
	 * @throws DependentFailure if a dependent's function, apply or prune failed
	 */
	public DependentsStatus run(P primary, ReconcileContext<P> context) throws DependentFailure {
		String uid = Objects.requireNonNull(primary.getMetadata().getUid(), "primary must have metadata.uid");
		String setId = DependentJson.applySetId(primary);
		String primaryKey = Caches.metaNamespaceKeyFunc(primary);
		Map<String, State> states = new HashMap<>();
		// per dependent, the keys of the objects it keeps; null keeps all of them
		Map<String, @Nullable Set<String>> kept = new HashMap<>();
		DependentsStatus status = null;
		long now = this.ticker.read();
		for (Dependent<P, ?> dependent : this.dependents.order()) {
			try {
				Set<String> dependencies = this.dependents.dependencies(dependent);
				if (dependencies.stream().anyMatch((name) -> states.get(name) == State.UNWANTED)
						|| !dependent.wanted(copy(primary), context)) {
					states.put(dependent.name(), State.UNWANTED);
					kept.put(dependent.name(),
							(dependent.whenUnwanted() == Dependent.WhenUnwanted.SKIP) ? null : Set.of());
					this.notReadySince.remove(primaryKey + "|" + dependent.name());
					this.warned.remove(primaryKey + "|" + dependent.name());
					continue;
				}
				String waitingFor = dependencies.stream()
					.filter((name) -> states.get(name) != State.READY)
					.findFirst()
					.orElse(null);
				if (waitingFor != null) {
					states.put(dependent.name(), State.WAITING);
					kept.put(dependent.name(), null);
					continue;
				}
				Set<String> keys = new HashSet<>();
				String notReady = null;
				for (KubernetesObject desired : dependent.desired(copy(primary), context)) {
					KubernetesObject actual = apply(dependent, desired, primary, uid, setId);
					keys.add(Caches.metaNamespaceKeyFunc(actual));
					if (notReady == null) {
						String reason = dependent.notReady(Objects.requireNonNull(this.support.copy(actual)));
						if (reason != null) {
							notReady = describe(actual) + ": " + reason;
						}
					}
				}
				kept.put(dependent.name(), keys);
				String since = primaryKey + "|" + dependent.name();
				if (notReady == null) {
					states.put(dependent.name(), State.READY);
					this.warned.remove(since);
					Long first = this.notReadySince.remove(since);
					if (first != null) {
						this.support.listener()
							.dependentReady(this.controller, dependent.name(), Duration.ofNanos(now - first));
					}
				}
				else {
					states.put(dependent.name(), State.NOT_READY);
					long first = this.notReadySince.computeIfAbsent(since, (key) -> now);
					Duration timeout = dependent.readyTimeout();
					boolean timedOut = !timeout.isZero() && now - first >= timeout.toNanos();
					if (timedOut && this.warned.add(since)) {
						context.events()
							.warning(primary, "DependentNotReady", "Reconcile", dependent.name() + ": " + notReady
									+ ", not ready after " + timeout + "; still waiting");
					}
					if (status == null) {
						status = new DependentsStatus(false, dependent.name(),
								dependent.name() + ": " + notReady + (timedOut ? ", not ready after " + timeout : ""));
					}
				}
			}
			catch (Exception ex) {
				throw new DependentFailure(dependent.name(), ex);
			}
		}
		this.pruner.prune(uid, setId, kept, false);
		if (status != null) {
			return status;
		}
		long ready = states.values().stream().filter((state) -> state == State.READY).count();
		return new DependentsStatus(true, null,
				(ready == 1) ? "The dependent is ready" : "All " + ready + " dependents are ready");
	}

	/**
	 * Delete the objects of the primary that no owner reference reaches, before its
	 * finalizer goes: garbage collection takes the others.
	 * @param primary the primary being deleted
	 * @return whether none is left
	 * @throws DependentFailure if a delete failed
	 */
	public boolean cleanUp(P primary) throws DependentFailure {
		String uid = Objects.requireNonNull(primary.getMetadata().getUid());
		this.pruner.prune(uid, DependentJson.applySetId(primary), Map.of(), true);
		return true;
	}

	/**
	 * Forget what was remembered of a primary object that is gone.
	 * @param primaryKey its {@code namespace/name} key
	 */
	public void forget(String primaryKey) {
		String prefix = primaryKey + "|";
		this.notReadySince.keySet().removeIf((key) -> key.startsWith(prefix));
		this.warned.removeIf((key) -> key.startsWith(prefix));
	}

	private KubernetesObject apply(Dependent<P, ?> dependent, KubernetesObject desired, P primary, String uid,
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
					throw new IllegalArgumentException("Dependent '" + dependent.name() + "' returned " + type.kind()
							+ " " + metadata.getName() + " without a namespace, which the cluster-scoped "
							+ describe(primary) + " cannot lend it");
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
		metadata.putLabelsItem(PART_OF, setId);
		metadata.putLabelsItem(DEPENDENT, dependent.name());
		String key = Caches.metaNamespaceKeyFunc(desired);
		CacheView view = this.support.views().require(desired.getClass());
		KubernetesObject actual = view.get(key);
		if (ownable) {
			checkNotOwnedByAnother(actual, uid);
			ResourceType primaryType = ResourceType.of(primary.getClass());
			metadata.setOwnerReferences(List.of(new V1OwnerReference().apiVersion(primaryType.apiVersion())
				.kind(primaryType.kind())
				.name(primary.getMetadata().getName())
				.uid(uid)
				.controller(true)
				.blockOwnerDeletion(true)));
		}
		else {
			if (!this.hasFinalizer) {
				throw new TerminalReconcileException("Dependent '" + dependent.name() + "' applies " + type.kind() + " "
						+ key + ", which no owner reference from " + describe(primary)
						+ " can reach, so garbage collection would leave it behind: give controller '" + this.controller
						+ "' a finalizer, whose cleanup then deletes it");
			}
			metadata.putAnnotationsItem(OWNER_UID, uid);
			metadata.putAnnotationsItem(DependentLabels.OWNER, Caches.metaNamespaceKeyFunc(primary));
		}
		// serialized once: hashed, compared and sent
		JsonObject json = this.writer.applyJson(desired);
		String hash = DependentJson.hash(json);
		metadata.putAnnotationsItem(DESIRED_HASH, hash);
		annotate(json, hash);
		boolean sameDesire = actual != null && actual.getMetadata().getAnnotations() != null
				&& hash.equals(actual.getMetadata().getAnnotations().get(DESIRED_HASH));
		if (actual != null && sameDesire
				&& DependentJson.covers(JSON.getGson().toJsonTree(actual), DependentJson.asStored(json))) {
			this.support.listener().dependentApplied(this.controller, dependent.name(), false, false);
			return actual;
		}
		// forced: the controller's fields are its own, whoever changed them since
		KubernetesObject applied = this.writer.apply(desired, json, true);
		this.support.views().written(applied);
		boolean changed = actual == null || !Objects.equals(actual.getMetadata().getResourceVersion(),
				applied.getMetadata().getResourceVersion());
		this.support.listener().dependentApplied(this.controller, dependent.name(), changed, sameDesire && changed);
		return applied;
	}

	private static void annotate(JsonObject json, String hash) {
		JsonObject metadata = json.getAsJsonObject("metadata");
		JsonObject annotations = metadata.getAsJsonObject("annotations");
		if (annotations == null) {
			annotations = new JsonObject();
			metadata.add("annotations", annotations);
		}
		annotations.addProperty(DESIRED_HASH, hash);
	}

	private static void checkNotOwnedByAnother(@Nullable KubernetesObject actual, String uid) {
		if (actual == null || actual.getMetadata().getOwnerReferences() == null) {
			return;
		}
		for (V1OwnerReference reference : actual.getMetadata().getOwnerReferences()) {
			if (Boolean.TRUE.equals(reference.getController()) && !uid.equals(reference.getUid())) {
				throw new AlreadyOwnedException(describe(actual), reference.getKind() + "/" + reference.getName());
			}
		}
	}

	private P copy(P primary) {
		return Objects.requireNonNull(this.support.copy(primary));
	}

	static String describe(KubernetesObject object) {
		String kind = ResourceType.of(object.getClass()).kind();
		V1ObjectMeta metadata = object.getMetadata();
		return kind + " " + ((metadata.getNamespace() != null) ? metadata.getNamespace() + "/" : "")
				+ metadata.getName();
	}

	private enum State {

		READY, NOT_READY, WAITING, UNWANTED

	}

}
