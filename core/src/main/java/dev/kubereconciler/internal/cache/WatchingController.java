package dev.kubereconciler.internal.cache;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;

/**
 * What the informer wiring needs of one controller: what it watches, where its keys go,
 * and who counts the updates its event filters drop.
 *
 * @param definition the controller's definition
 * @param keys where its keys go
 * @param listener told of each update an event filter drops
 */
public record WatchingController(ControllerDefinition definition, KeySink keys, ControllerListener listener) {

	/**
	 * Return the controller's name.
	 * @return the name
	 */
	public String name() {
		return this.definition.name();
	}

}
