package dev.kubereconciler.rbac;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileLogic;

/**
 * Feeds controller definitions into {@link RbacRules}: one call per feature a definition
 * declares.
 */
public final class ControllerRbac {

	private ControllerRbac() {
	}

	/**
	 * Derive the rules of what the definitions declare.
	 * @param definitions the controllers
	 * @return the rules, to which leases, events and user rules can still be added
	 */
	public static RbacRules derive(Collection<ControllerDefinition> definitions) {
		RbacRules rules = new RbacRules();
		definitions.forEach((definition) -> add(rules, definition));
		// one informer per type serves every controller that uses it, and it lists and
		// watches in one namespace only when they all name that one; otherwise it reads
		// every namespace and each controller filters, which namespaced Roles cannot
		// allow: a ClusterRole of reads covers it; writes stay in the namespaced Roles
		Map<Class<?>, Set<String>> namespaces = new LinkedHashMap<>();
		Set<Class<?>> everywhere = new HashSet<>();
		for (ControllerDefinition definition : definitions) {
			for (Class<? extends KubernetesObject> type : definition.cachedTypes()) {
				if (definition.namespaces().isEmpty()) {
					everywhere.add(type);
				}
				namespaces.computeIfAbsent(type, (key) -> new LinkedHashSet<>()).addAll(definition.namespaces());
			}
		}
		namespaces.forEach((type, names) -> {
			if (!everywhere.contains(type) && names.size() > 1) {
				rules.readsEverywhere(ResourceType.of(type));
			}
		});
		return rules;
	}

	/**
	 * Add get and list on the types the cache options read through, in the namespaces of
	 * the controllers, or in all of them when a controller watches every namespace.
	 * @param rules the rules to add to
	 * @param options the cache options
	 * @param definitions the controllers
	 * @return the rules
	 */
	public static RbacRules readThrough(RbacRules rules, CacheOptions options,
			Collection<ControllerDefinition> definitions) {
		Set<String> namespaces = new LinkedHashSet<>();
		boolean everywhere = definitions.isEmpty();
		for (ControllerDefinition definition : definitions) {
			everywhere |= definition.namespaces().isEmpty();
			namespaces.addAll(definition.namespaces());
		}
		for (String resource : options.readThroughResources()) {
			int dot = resource.indexOf('.');
			String plural = (dot < 0) ? resource : resource.substring(0, dot);
			String group = (dot < 0) ? "" : resource.substring(dot + 1);
			rules.readsThrough(group, plural, everywhere ? Set.of() : namespaces);
		}
		return rules;
	}

	/**
	 * Add the rules of one definition.
	 * @param rules the rules to add to
	 * @param definition the controller
	 */
	public static void add(RbacRules rules, ControllerDefinition definition) {
		ResourceType primary = ResourceType.of(definition.watches());
		rules.watches(primary, definition.namespaces());
		definition.owns().forEach((owned) -> rules.watches(ResourceType.of(owned), definition.namespaces()));
		definition.mappedWatches()
			.forEach((mapped) -> rules.watches(ResourceType.of(mapped.type()), definition.namespaces()));
		ReconcileLogic<?> logic = definition.reconciler();
		if (logic.needsContext()) {
			// what the reconcile context offers: status writes on the primary (for a
			// type that has a status), writes and applies on owned objects, and
			// Kubernetes Events
			if (logic.writesStatus()) {
				rules.status(primary, definition.namespaces());
			}
			if (logic.finalizer() != null) {
				rules.finalizers(primary, definition.namespaces());
			}
			definition.owns().forEach((owned) -> rules.writes(ResourceType.of(owned), definition.namespaces()));
			rules.events();
		}
	}

}
