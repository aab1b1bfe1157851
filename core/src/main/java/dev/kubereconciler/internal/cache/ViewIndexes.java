package dev.kubereconciler.internal.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.cache.Indexer;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.dependent.DependentLabels;

/**
 * The indexes a {@link CacheView} finds owned objects and ApplySet members by: the
 * owners' uids and the {@code applyset.kubernetes.io/part-of} label, added to the
 * informer before it starts; an informer that already runs takes no new index, and is
 * scanned instead.
 */
final class ViewIndexes {

	static final String OWNER_INDEX = "kube-reconciler/owner-uid";

	static final String PART_OF_INDEX = "kube-reconciler/applyset-part-of";

	private static final Logger logger = LoggerFactory.getLogger(ViewIndexes.class);

	private final Indexer<? extends KubernetesObject> indexer;

	private final boolean owners;

	private final boolean partOf;

	@SuppressWarnings({ "unchecked", "rawtypes" })
	ViewIndexes(SharedIndexInformer<? extends KubernetesObject> informer) {
		this.indexer = informer.getIndexer();
		Map<String, Function<KubernetesObject, List<String>>> missing = new LinkedHashMap<>();
		if (!this.indexer.getIndexers().containsKey(OWNER_INDEX)) {
			missing.put(OWNER_INDEX, ViewIndexes::ownerUids);
		}
		if (!this.indexer.getIndexers().containsKey(PART_OF_INDEX)) {
			missing.put(PART_OF_INDEX, ViewIndexes::applySets);
		}
		if (!missing.isEmpty()) {
			try {
				((SharedIndexInformer) informer).addIndexers(missing);
			}
			catch (IllegalStateException ex) {
				// an informer of a shared factory that already runs takes no new index:
				// scan it
				logger.warn("Informer for {} already runs; owned objects are found by a scan instead of an index",
						informer.getClass().getSimpleName());
			}
		}
		this.owners = this.indexer.getIndexers().containsKey(OWNER_INDEX);
		this.partOf = this.indexer.getIndexers().containsKey(PART_OF_INDEX);
	}

	/**
	 * Return the informer's objects that may have an owner of this uid: those of the
	 * index, or all of them without it.
	 */
	List<? extends KubernetesObject> owned(String ownerUid) {
		return this.owners ? this.indexer.byIndex(OWNER_INDEX, ownerUid) : this.indexer.list();
	}

	/**
	 * Return the informer's objects that may be members of this ApplySet: those of the
	 * index, or all of them without it.
	 */
	List<? extends KubernetesObject> partOf(String setId) {
		return this.partOf ? this.indexer.byIndex(PART_OF_INDEX, setId) : this.indexer.list();
	}

	static List<String> ownerUids(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		if (metadata == null || metadata.getOwnerReferences() == null) {
			return List.of();
		}
		List<String> uids = new ArrayList<>(metadata.getOwnerReferences().size());
		for (V1OwnerReference reference : metadata.getOwnerReferences()) {
			if (reference.getUid() != null) {
				uids.add(reference.getUid());
			}
		}
		return uids;
	}

	static List<String> applySets(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		String setId = (metadata != null && metadata.getLabels() != null)
				? metadata.getLabels().get(DependentLabels.PART_OF) : null;
		return (setId != null) ? List.of(setId) : List.of();
	}

}
