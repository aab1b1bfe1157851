package dev.kubereconciler.rbac;

import java.util.Collection;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ResourceType;

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
		// Hooks for what ControllerDefinition does not declare yet; each is one line at merge:
		// mapped watches (events helper):  definition.maps() -> rules.watches(type, namespaces)
		// finalizers (issue 13):           definition.finalizer() -> rules.finalizers(primary, namespaces)
		// status writes (issue 13):        definition.writesStatus() -> rules.status(primary, namespaces)
		// server-side apply (issue 13):    each applied type -> rules.applies(type, namespaces)
		// EventRecorder (events helper):   recorder present -> rules.events()
	}

}
