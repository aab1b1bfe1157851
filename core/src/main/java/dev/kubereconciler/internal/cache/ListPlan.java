package dev.kubereconciler.internal.cache;

import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;

/**
 * How an informer's list goes on after its first, small request, chosen from what the
 * server said of the size: small lists are read whole from the watch cache, which the API
 * server answers from memory in one response, and large ones in pages of a consistent
 * read, so that the client never holds the JSON of every object at once.
 */
enum ListPlan {

	/** The first answer held every object. */
	COMPLETE,

	/** Read everything in one request from the watch cache, at least as new. */
	WATCH_CACHE,

	/** Read in pages from one snapshot. */
	PAGES;

	/**
	 * Choose, from the metadata of the first answer, which asked for at most
	 * {@code limit} objects and is read before its items are.
	 * @param metadata the first answer's list metadata
	 * @param limit the first request's limit
	 * @param selected whether the first request had the list's own label selector, so
	 * that its items belong to the list
	 * @param watchCacheListMax the most objects read whole from the watch cache; 0 pages
	 * every list
	 * @return the plan
	 */
	static ListPlan after(@Nullable V1ListMeta metadata, int limit, boolean selected, int watchCacheListMax) {
		String next = (metadata != null) ? metadata.getContinue() : null;
		if (metadata == null || next == null || next.isEmpty()) {
			// nothing more: the first answer is the list, or, when it was asked without
			// the list's selector to learn the size, the list is as small as lists get
			return selected ? COMPLETE : WATCH_CACHE;
		}
		Long remaining = metadata.getRemainingItemCount();
		if (remaining == null || watchCacheListMax == 0) {
			// the server gives no count with a selector: only paging bounds the heap
			return PAGES;
		}
		// an answer with a continue token is full
		return (remaining + limit <= watchCacheListMax) ? WATCH_CACHE : PAGES;
	}

}
