package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Indexer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.reconcile.KubernetesObjects;

/**
 * Adds the application's {@link FieldIndex}es to an informer before it starts, and looks
 * values up in them. An informer of a shared factory that already runs takes no new
 * index: its lookups scan it instead, with the same result.
 */
final class DeclaredIndexes {

	private static final Logger logger = LoggerFactory.getLogger(DeclaredIndexes.class);

	private DeclaredIndexes() {
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static void add(SharedIndexInformer<? extends KubernetesObject> informer, List<FieldIndex<?>> indexes) {
		Map<String, Function<KubernetesObject, List<String>>> missing = new LinkedHashMap<>();
		for (FieldIndex<?> index : indexes) {
			if (!informer.getIndexer().getIndexers().containsKey(index.name())) {
				missing.put(index.name(), (object) -> valuesOf(index, object));
			}
		}
		if (missing.isEmpty()) {
			return;
		}
		try {
			((SharedIndexInformer) informer).addIndexers(missing);
		}
		catch (IllegalStateException ex) {
			logger.warn("The informer of {} already runs; its indexes {} are looked up by a scan instead",
					indexes.get(0).type().getSimpleName(), missing.keySet());
		}
	}

	/**
	 * Return the values of an object; a function that throws gives none, so that one bad
	 * object never stops the informer.
	 */
	static List<String> valuesOf(FieldIndex<?> index, KubernetesObject object) {
		try {
			return index.valuesOf(object);
		}
		catch (RuntimeException ex) {
			logger.warn("Index '{}' failed for {}; the object is not indexed by it", index.name(),
					KubernetesObjects.describe(object), ex);
			return List.of();
		}
	}

	/**
	 * Return the objects of an informer that an index finds by a value, by the index when
	 * the informer has it, otherwise by a scan.
	 */
	static List<KubernetesObject> find(Indexer<? extends KubernetesObject> indexer, FieldIndex<?> index, String value) {
		List<KubernetesObject> found = new ArrayList<>();
		if (indexer.getIndexers().containsKey(index.name())) {
			found.addAll(indexer.byIndex(index.name(), value));
			return found;
		}
		for (KubernetesObject object : indexer.list()) {
			if (valuesOf(index, object).contains(value)) {
				found.add(object);
			}
		}
		return found;
	}

}
