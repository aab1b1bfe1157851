package dev.kubereconciler.internal.cache;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;

/**
 * What the informer wiring needs of one controller: what it watches, where its keys go,
 * who counts the updates its event filters drop, and the namespaces it reconciles now.
 *
 * @param definition the controller's definition
 * @param keys where its keys go, in the cluster being wired
 * @param listener told of each update an event filter drops
 * @param scope the namespaces it reconciles now, which may change while it runs
 * @param across where the keys of its watches that map across clusters go, each naming
 * its own cluster
 */
public record WatchingController(ControllerDefinition definition, KeySink keys, ControllerListener listener,
		NamespaceScope scope, KeySink across) {

	/**
	 * Create the wiring's view of a controller whose keys of every watch go to one sink.
	 * @param definition the controller's definition
	 * @param keys where its keys go
	 * @param listener told of each update an event filter drops
	 * @param scope the namespaces it reconciles now
	 */
	public WatchingController(ControllerDefinition definition, KeySink keys, ControllerListener listener,
			NamespaceScope scope) {
		this(definition, keys, listener, scope, keys);
	}

	/**
	 * Create the wiring's view of a controller whose namespaces are its definition's.
	 * @param definition the controller's definition
	 * @param keys where its keys go
	 * @param listener told of each update an event filter drops
	 */
	public WatchingController(ControllerDefinition definition, KeySink keys, ControllerListener listener) {
		this(definition, keys, listener, new NamespaceScope(definition.namespaces()));
	}

	/**
	 * Return the controller's name.
	 * @return the name
	 */
	public String name() {
		return this.definition.name();
	}

}
