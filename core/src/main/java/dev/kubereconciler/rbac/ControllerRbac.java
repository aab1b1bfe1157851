package dev.kubereconciler.rbac;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

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
		// a type read in several namespaces has one informer per namespace, as
		// controller-runtime's multi-namespace cache: each namespace's Role grants its
		// reads, and no ClusterRole is needed for them
		definitions.forEach((definition) -> add(rules, definition));
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
