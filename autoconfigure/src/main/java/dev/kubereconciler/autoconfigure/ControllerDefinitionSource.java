package dev.kubereconciler.autoconfigure;

import java.util.List;

import dev.kubereconciler.controller.ControllerDefinition;

/**
 * The definitions the manager runs, resolved from the application's beans and the
 * {@code kube-reconciler.*} properties once every bean exists.
 */
@FunctionalInterface
public interface ControllerDefinitionSource {

	/**
	 * Resolve the definitions to run, leaving out disabled controllers.
	 * @return the definitions
	 */
	List<ControllerDefinition> definitions();

}
