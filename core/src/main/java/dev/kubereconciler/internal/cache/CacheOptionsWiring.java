package dev.kubereconciler.internal.cache;

import java.util.LinkedHashSet;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Indexer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.cache.IndexMapper;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * What {@link CacheOptions} change in the informers {@link InformerWiring} makes: a
 * type's own selectors, which the API server applies beside the controllers' one, its
 * declared indexes, and the mappers that look primary objects up by index.
 */
final class CacheOptionsWiring {

	private final CacheOptions options;

	CacheOptionsWiring(CacheOptions options) {
		this.options = options;
	}

	/**
	 * Return the label selector an informer of a type lists and watches with: the type's
	 * own and the controllers' one, both applied.
	 */
	@Nullable String labelSelector(Class<? extends KubernetesObject> type, String controllers) {
		String own = this.options.labelSelector(type);
		if (own == null) {
			return controllers.isEmpty() ? null : controllers;
		}
		return controllers.isEmpty() ? own : own + "," + controllers;
	}

	@Nullable String fieldSelector(Class<? extends KubernetesObject> type) {
		return this.options.fieldSelector(type);
	}

	void addIndexes(Class<?> type, SharedIndexInformer<? extends KubernetesObject> informer) {
		if (!this.options.indexes(type).isEmpty()) {
			DeclaredIndexes.add(informer, this.options.indexes(type));
		}
	}

	/**
	 * Return the mapper of a mapped watch: its own, or, for a mapped watch by index, one
	 * that looks the changed object's values up in the primary type's index.
	 * @throws IllegalArgumentException if the primary type has no such index
	 */
	@SuppressWarnings("unchecked")
	RequestMapper<KubernetesObject> mapper(MappedWatch<?> watch, ControllerDefinition definition,
			SharedIndexInformer<? extends KubernetesObject> primary) {
		if (!(watch.mapper() instanceof IndexMapper<?> byIndex)) {
			return (RequestMapper<KubernetesObject>) watch.mapper();
		}
		FieldIndex<?> index = this.options.indexes(definition.watches())
			.stream()
			.filter((declared) -> declared.name().equals(byIndex.index()))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Controller '" + definition.name() + "' maps "
					+ watch.type().getSimpleName() + " by the index '" + byIndex.index() + "' of "
					+ definition.watches().getSimpleName() + ", which has no such index; declare it with .index("
					+ definition.watches().getSimpleName() + ".class, \"" + byIndex.index()
					+ "\", object -> values) or a FieldIndex bean"));
		IndexMapper<KubernetesObject> mapper = (IndexMapper<KubernetesObject>) byIndex;
		Indexer<? extends KubernetesObject> indexer = primary.getIndexer();
		return (object) -> {
			Set<Request> keys = new LinkedHashSet<>();
			for (String value : mapper.values().apply(object)) {
				for (KubernetesObject found : DeclaredIndexes.find(indexer, index, value)) {
					keys.add(InformerWiring.requestFor(found.getMetadata()));
				}
			}
			return keys;
		};
	}

}
