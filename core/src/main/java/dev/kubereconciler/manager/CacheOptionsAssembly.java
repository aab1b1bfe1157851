package dev.kubereconciler.manager;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.controller.ControllerDefinition;

/**
 * Joins the manager's cache options and the indexes its controllers declare, and refuses
 * an index that no informer could hold.
 */
final class CacheOptionsAssembly {

	private CacheOptionsAssembly() {
	}

	static CacheOptions merge(CacheOptions options, Collection<ControllerDefinition> definitions) {
		CacheOptions merged = options;
		Set<Class<?>> cached = new HashSet<>();
		for (ControllerDefinition definition : definitions) {
			for (FieldIndex<?> index : definition.indexes()) {
				merged = merged.index(index);
			}
			cached.addAll(definition.cachedTypes());
			cached.addAll(definition.reconciler().dependents().types());
		}
		for (FieldIndex<?> index : merged.indexes()) {
			if (!cached.contains(index.type()) && !merged.isReadThrough(index.type())) {
				String name = index.type().getSimpleName();
				throw new IllegalArgumentException("Index '" + index.name() + "' of " + name
						+ ": no controller of this manager watches, owns or maps " + name
						+ ", so no informer holds it; watch, own or map " + name + ", or declare it read through "
						+ "(kube-reconciler.cache.resources[" + CacheOptions.resourceOf(index.type())
						+ "].read-through=true), whose lookups list from the API server");
			}
		}
		return merged;
	}

}
