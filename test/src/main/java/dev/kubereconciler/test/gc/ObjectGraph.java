package dev.kubereconciler.test.gc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

/**
 * Every watched object by uid, and the dependents of each owner uid, as
 * kube-controller-manager's dependency graph keeps them: owners are known by uid only.
 */
final class ObjectGraph {

	private final Map<String, ObjectNode> nodes = new HashMap<>();

	private final Map<String, Set<String>> dependents = new HashMap<>();

	synchronized @Nullable ObjectNode put(ObjectNode node) {
		ObjectNode previous = this.nodes.put(node.uid(), node);
		if (previous != null) {
			unlink(previous);
		}
		for (V1OwnerReference owner : node.owners()) {
			this.dependents.computeIfAbsent(owner.getUid(), (uid) -> new LinkedHashSet<>()).add(node.uid());
		}
		return previous;
	}

	synchronized @Nullable ObjectNode remove(String uid) {
		ObjectNode removed = this.nodes.remove(uid);
		if (removed != null) {
			unlink(removed);
		}
		return removed;
	}

	synchronized @Nullable ObjectNode get(String uid) {
		return this.nodes.get(uid);
	}

	synchronized List<ObjectNode> dependentsOf(String uid) {
		List<ObjectNode> result = new ArrayList<>();
		for (String dependent : this.dependents.getOrDefault(uid, Set.of())) {
			ObjectNode node = this.nodes.get(dependent);
			if (node != null) {
				result.add(node);
			}
		}
		return result;
	}

	synchronized List<String> uidsOf(ResourceType type) {
		return this.nodes.values().stream().filter((node) -> node.type().equals(type)).map(ObjectNode::uid).toList();
	}

	private void unlink(ObjectNode node) {
		for (V1OwnerReference owner : node.owners()) {
			Set<String> set = this.dependents.get(owner.getUid());
			if (set != null) {
				set.remove(node.uid());
				if (set.isEmpty()) {
					this.dependents.remove(owner.getUid());
				}
			}
		}
	}

}
