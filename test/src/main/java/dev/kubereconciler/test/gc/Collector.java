package dev.kubereconciler.test.gc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

/**
 * What kube-controller-manager's garbage collector does with one object of its graph:
 * delete it when all its owners are gone, let go of owners being deleted, and finish the
 * foreground or orphan deletion of an owner. Owners are looked up live, by the kind and
 * name of each reference, and count only when the uid matches.
 */
final class Collector {

	private static final String BACKGROUND = "Background";

	// an owner created just before its dependent may come through its own watch a little
	// later: the check waits for it rather than asking the server at once
	private static final Duration OWNER_WATCH_LAG = Duration.ofMillis(500);

	private final MetadataClient client;

	private final ObjectGraph graph;

	private final Supplier<ResourceDiscovery> discovery;

	private final Predicate<String> ignoredNamespace;

	private final WorkQueue queue;

	Collector(MetadataClient client, ObjectGraph graph, Supplier<ResourceDiscovery> discovery,
			Predicate<String> ignoredNamespace, WorkQueue queue) {
		this.client = client;
		this.graph = graph;
		this.discovery = discovery;
		this.ignoredNamespace = ignoredNamespace;
		this.queue = queue;
	}

	/** Queues what an added or changed object may call for. */
	void observed(@Nullable ObjectNode previous, ObjectNode node) {
		if (node.deletingDependents()) {
			this.queue.add(node.uid());
			if (previous == null || !previous.deletingDependents()) {
				this.graph.dependentsOf(node.uid()).forEach((dependent) -> this.queue.add(dependent.uid()));
			}
		}
		if (node.orphaningDependents()) {
			this.queue.add(node.uid());
		}
		for (V1OwnerReference reference : node.owners()) {
			ObjectNode owner = this.graph.get(reference.getUid());
			if (owner != null && owner.deletingDependents()) {
				this.queue.add(node.uid());
				return;
			}
			if (owner == null || !owner.isReferencedBy(reference)) {
				this.queue.addAfter(node.uid(), OWNER_WATCH_LAG);
				return;
			}
		}
	}

	/** Queues the dependents of a deleted object, and its owners that wait for it. */
	void deleted(ObjectNode node) {
		this.graph.dependentsOf(node.uid()).forEach((dependent) -> this.queue.add(dependent.uid()));
		for (V1OwnerReference reference : node.owners()) {
			ObjectNode owner = this.graph.get(reference.getUid());
			if (owner != null && owner.deletingDependents()) {
				this.queue.add(owner.uid());
			}
		}
	}

	Outcome process(String uid) throws ApiException {
		ObjectNode node = this.graph.get(uid);
		if (node == null || (node.namespace() != null && this.ignoredNamespace.test(node.namespace()))) {
			return Outcome.DONE;
		}
		if (node.orphaningDependents()) {
			return orphanDependents(node);
		}
		if (node.metadata().getDeletionTimestamp() == null && ownersAllSeen(node)) {
			// every owner is in the graph, as referenced, and not being deleted: nothing
			// to ask the server
			return Outcome.DONE;
		}
		V1ObjectMeta live = this.client.get(node.type(), node.namespace(), node.name());
		if (live == null || !uid.equals(live.getUid())) {
			return Outcome.DONE;
		}
		ObjectNode item = new ObjectNode(node.type(), live);
		if (item.deletingDependents()) {
			return deleteDependents(item);
		}
		return (live.getDeletionTimestamp() != null) ? Outcome.DONE : attemptToDelete(item);
	}

	private boolean ownersAllSeen(ObjectNode node) {
		for (V1OwnerReference reference : node.owners()) {
			ObjectNode owner = this.graph.get(reference.getUid());
			if (owner == null || !owner.isReferencedBy(reference) || owner.metadata().getDeletionTimestamp() != null
					|| !sameScope(node, owner)) {
				return false;
			}
		}
		return true;
	}

	// a namespaced owner counts only in its dependent's namespace
	private static boolean sameScope(ObjectNode dependent, ObjectNode owner) {
		return owner.namespace() == null || owner.namespace().equals(dependent.namespace());
	}

	private Outcome attemptToDelete(ObjectNode item) throws ApiException {
		List<V1OwnerReference> owners = item.owners();
		Set<String> absent = new HashSet<>();
		boolean solid = false;
		boolean waiting = false;
		for (V1OwnerReference reference : owners) {
			OwnerState state = ownerState(item, reference);
			if (state == OwnerState.UNKNOWN_KIND) {
				return Outcome.UNKNOWN_KIND;
			}
			solid |= state == OwnerState.SOLID;
			waiting |= state == OwnerState.WAITING;
			if (state == OwnerState.DANGLING || state == OwnerState.WAITING) {
				absent.add(reference.getUid());
			}
		}
		if (owners.isEmpty() || (solid && absent.isEmpty())) {
			return Outcome.DONE;
		}
		if (solid) {
			// it stays for its other owners, and lets go of the absent and the deleting
			// ones
			List<V1OwnerReference> kept = owners.stream()
				.filter((reference) -> !absent.contains(reference.getUid()))
				.toList();
			return patched(this.client.patchMetadata(item.type(), item.metadata(), Map.of("ownerReferences", kept)));
		}
		String policy = BACKGROUND;
		if (waiting && !this.graph.dependentsOf(item.uid()).isEmpty()) {
			// an owner waits for it: its own blocking dependents go first
			policy = "Foreground";
		}
		else if (hasFinalizer(item.metadata(), ObjectNode.ORPHAN)) {
			policy = "Orphan";
		}
		else if (hasFinalizer(item.metadata(), ObjectNode.FOREGROUND)) {
			policy = "Foreground";
		}
		this.client.delete(item.type(), item.namespace(), item.name(), item.uid(), policy);
		return Outcome.DONE;
	}

	private OwnerState ownerState(ObjectNode item, V1OwnerReference reference) throws ApiException {
		ResourceType type = this.discovery.get().resourceOf(reference.getApiVersion(), reference.getKind());
		if (type == null) {
			return OwnerState.UNKNOWN_KIND;
		}
		if (type.namespaced() && item.namespace() == null) {
			// a cluster-scoped object cannot name a namespaced owner: the reference
			// cannot be resolved, and the object is never collected
			return OwnerState.SOLID;
		}
		V1ObjectMeta owner = this.client.get(type, type.namespaced() ? item.namespace() : null, reference.getName());
		if (owner == null || !reference.getUid().equals(owner.getUid())) {
			return OwnerState.DANGLING;
		}
		return ObjectNode.isBeingDeletedWith(owner, ObjectNode.FOREGROUND) ? OwnerState.WAITING : OwnerState.SOLID;
	}

	private Outcome deleteDependents(ObjectNode owner) throws ApiException {
		List<ObjectNode> blocking = this.graph.dependentsOf(owner.uid())
			.stream()
			.filter((dependent) -> dependent.owners()
				.stream()
				.anyMatch((reference) -> owner.uid().equals(reference.getUid())
						&& Boolean.TRUE.equals(reference.getBlockOwnerDeletion())))
			.toList();
		if (blocking.isEmpty()) {
			return removeFinalizer(owner, ObjectNode.FOREGROUND);
		}
		// each one gone queues the owner again
		blocking.stream().filter((dependent) -> !dependent.deletingDependents()).forEach((dependent) -> {
			this.queue.add(dependent.uid());
		});
		return Outcome.DONE;
	}

	private Outcome orphanDependents(ObjectNode owner) throws ApiException {
		for (ObjectNode dependent : this.graph.dependentsOf(owner.uid())) {
			V1ObjectMeta live = this.client.get(dependent.type(), dependent.namespace(), dependent.name());
			if (live == null || !dependent.uid().equals(live.getUid()) || live.getOwnerReferences() == null) {
				continue;
			}
			List<V1OwnerReference> kept = live.getOwnerReferences()
				.stream()
				.filter((reference) -> !owner.uid().equals(reference.getUid()))
				.toList();
			if (kept.size() != live.getOwnerReferences().size()
					&& !this.client.patchMetadata(dependent.type(), live, Map.of("ownerReferences", kept))) {
				return Outcome.RETRY;
			}
		}
		V1ObjectMeta live = this.client.get(owner.type(), owner.namespace(), owner.name());
		if (live == null || !owner.uid().equals(live.getUid())
				|| !ObjectNode.isBeingDeletedWith(live, ObjectNode.ORPHAN)) {
			return Outcome.DONE;
		}
		return removeFinalizer(new ObjectNode(owner.type(), live), ObjectNode.ORPHAN);
	}

	private Outcome removeFinalizer(ObjectNode node, String finalizer) throws ApiException {
		List<String> finalizers = new ArrayList<>(node.metadata().getFinalizers());
		finalizers.remove(finalizer);
		return patched(this.client.patchMetadata(node.type(), node.metadata(), Map.of("finalizers", finalizers)));
	}

	// a conflict or a vanished object: read it again
	private static Outcome patched(boolean written) {
		return written ? Outcome.DONE : Outcome.RETRY;
	}

	private static boolean hasFinalizer(V1ObjectMeta metadata, String finalizer) {
		return metadata.getFinalizers() != null && metadata.getFinalizers().contains(finalizer);
	}

	/** What became of one object's turn. */
	enum Outcome {

		/** Nothing more to do until something changes. */
		DONE,
		/** Try again soon: a write met a concurrent change. */
		RETRY,
		/** An owner's kind is not served (yet): try again after the next discovery. */
		UNKNOWN_KIND

	}

	private enum OwnerState {

		SOLID, DANGLING, WAITING, UNKNOWN_KIND

	}

}
