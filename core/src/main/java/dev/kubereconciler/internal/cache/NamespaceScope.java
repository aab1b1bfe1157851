package dev.kubereconciler.internal.cache;

import java.util.Set;

import dev.kubereconciler.reconcile.Request;

/**
 * The namespaces a running controller reconciles now: its definition's at first, changed
 * while it runs through {@code Controller.changeNamespaces}; a namespace added joins once
 * its informers synced. Every event handler and the workers read it, so that an object of
 * a namespace the controller left is neither enqueued nor reconciled.
 */
public final class NamespaceScope {

	private volatile Set<String> namespaces;

	// what the last change asked for: the namespaces reconciled now, and those whose
	// informers still sync
	private volatile Set<String> requested;

	/**
	 * Create a scope.
	 * @param namespaces the namespaces; empty for all of them
	 */
	public NamespaceScope(Set<String> namespaces) {
		this.namespaces = Set.copyOf(namespaces);
		this.requested = this.namespaces;
	}

	/**
	 * Return the namespaces the last change asked for, some of which may still wait for
	 * their informers to sync.
	 * @return the namespaces; empty for all of them
	 */
	public Set<String> requested() {
		return this.requested;
	}

	void request(Set<String> namespaces) {
		this.requested = Set.copyOf(namespaces);
	}

	/**
	 * Return the namespaces now.
	 * @return the namespaces; empty for all of them
	 */
	public Set<String> get() {
		return this.namespaces;
	}

	void set(Set<String> namespaces) {
		this.namespaces = Set.copyOf(namespaces);
	}

	/**
	 * Return whether the controller reconciles objects of a namespace now.
	 * @param namespace the namespace, {@code ""} for a cluster-scoped object
	 * @return whether it is in scope
	 */
	public boolean contains(String namespace) {
		Set<String> now = this.namespaces;
		return now.isEmpty() || now.contains(namespace);
	}

	/**
	 * Return whether the controller reconciles a key now.
	 * @param request the key
	 * @return whether its namespace is in scope
	 */
	public boolean contains(Request request) {
		return contains(request.namespace());
	}

}
