package dev.kubereconciler.internal.cache;

import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.internal.cache.ListCall.PendingList;

/**
 * One list of an informer, its first or a relist, read the way its size calls for.
 *
 * <p>
 * A list is first asked of the API server's watch cache, as client-go's reflector asks
 * for its first list: at any version ({@code resourceVersion=0}) for a first list, and
 * for a relist at the reflector's last version or newer ({@code NotOlderThan}), which the
 * cache has passed; not at the newest version, which the cache may not have seen for up
 * to 3 s when nothing of the type was written since. The watch cache answers from memory,
 * whole and at once, whatever limit a request gives, so a small list costs one round
 * trip. Up to {@code watchCacheListMax} objects it is read whole; at the first object
 * past them the answer is given up unread, and the list read again in pages of
 * {@code pageSize} from one snapshot of the newest version (of the reflector's version,
 * for a relist), each requested as soon as the previous page's continue token is read and
 * before its items are decoded, so that the server prepares one page while the client
 * decodes the other: one page ahead, no more. A large list thus holds at most
 * {@code watchCacheListMax} objects of the watch cache's answer, then a page at a time.
 * With a page size of 0, the list is the reflector's own: one request at the version it
 * asks for. With a {@code watchCacheListMax} of 0, every list is paged.
 *
 * <p>
 * A version the server no longer has (410 Gone, a relist after a long disconnection) is
 * read at the newest instead, as client-go's reflector does once a version is
 * unavailable; a continue token that expired during the list makes one unpaged list of
 * everything, as client-go's {@code FullListIfExpired} does. The list's resourceVersion
 * is the snapshot's, or the watch cache's, from which the watch starts.
 */
final class InformerList {

	private final ListCall call;

	private final @Nullable String namespace;

	private final int pageSize;

	private final int watchCacheListMax;

	private final @Nullable TransformFunc transform;

	InformerList(ListCall call, @Nullable String namespace, int pageSize, int watchCacheListMax,
			@Nullable TransformFunc transform) {
		this.call = call;
		this.namespace = namespace;
		this.pageSize = pageSize;
		this.watchCacheListMax = watchCacheListMax;
		this.transform = transform;
	}

	/**
	 * List, for a reflector that asked for {@code request}'s version.
	 */
	KubernetesListObject list(ListRequest request) throws ApiException {
		if (this.pageSize == 0) {
			return this.call.prepare(this.namespace, request).read(this.transform, (metadata) -> {
			});
		}
		String version = request.resourceVersion();
		// "any version" and "the newest" are both served by the newest, which a paged
		// read gives exactly; another version is a relist's, read exactly
		ListRequest first = request
			.withResourceVersion((version == null || version.isEmpty() || "0".equals(version)) ? null : version, null);
		if (this.watchCacheListMax == 0) {
			return paged(first.withLimit(this.pageSize));
		}
		// client-go's reflector's first list: the watch cache answers it whole and at
		// once, in one round trip, where asking for the size first took two
		KubernetesListObject whole = fromWatchCache(first);
		// more than the watch cache should answer whole: given up at the first object
		// past the most, and read again in pages from one snapshot
		return (whole != null) ? whole : paged(first.withLimit(this.pageSize));
	}

	private @Nullable KubernetesListObject fromWatchCache(ListRequest first) throws ApiException {
		// any version answers at once (a first list), as does the newest the reflector
		// saw (a relist), where the newest may wait up to 3 s for the watch cache to see
		// it when nothing of the type was written since; the watch brings what came
		// after
		ListRequest whole = (first.resourceVersion() != null)
				? first.withResourceVersion(first.resourceVersion(), ListRequest.NOT_OLDER_THAN)
				: first.withResourceVersion("0", null);
		try {
			return this.call.prepare(this.namespace, whole).read(this.transform, (metadata) -> {
			}, this.watchCacheListMax);
		}
		catch (ApiException ex) {
			// the watch cache did not reach the version in time (504), or the server lost
			// it (410): a consistent read in pages has neither limit
			if (ex.getCode() != 504 && ex.getCode() != 410) {
				throw ex;
			}
			return paged(first.withResourceVersion(null, null).withLimit(this.pageSize));
		}
	}

	private KubernetesListObject paged(ListRequest firstPage) throws ApiException {
		Ahead ahead = new Ahead();
		KubernetesListObject first;
		try {
			first = firstPage(firstPage, (metadata) -> ahead.next = nextPage(metadata, firstPage));
		}
		catch (ApiException | RuntimeException ex) {
			if (ahead.next != null) {
				ahead.next.cancel();
			}
			throw ex;
		}
		return remainingPages(first, ahead.next, firstPage);
	}

	/** The first request, at the newest version when the one asked for is gone. */
	private KubernetesListObject firstPage(ListRequest request, MetadataListener onMetadata) throws ApiException {
		try {
			return read(this.call.prepare(this.namespace, request), onMetadata);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 410 || request.resourceVersion() == null) {
				throw ex;
			}
			return read(this.call.prepare(this.namespace, request.withResourceVersion(null, null)), onMetadata);
		}
	}

	private KubernetesListObject remainingPages(KubernetesListObject first, @Nullable PendingList second,
			ListRequest request) throws ApiException {
		// the models deserialize their items into a list of their own, which takes the
		// later pages
		@SuppressWarnings("unchecked")
		List<KubernetesObject> items = (List<KubernetesObject>) first.getItems();
		PendingList pending = second;
		while (pending != null) {
			Ahead ahead = new Ahead();
			KubernetesListObject page;
			try {
				page = read(pending, (metadata) -> ahead.next = nextPage(metadata, request));
			}
			catch (ApiException | RuntimeException ex) {
				if (ahead.next != null) {
					ahead.next.cancel();
				}
				if (!(ex instanceof ApiException api) || api.getCode() != 410) {
					throw ex;
				}
				// the continue token expired: everything at once, at the newest version
				return read(this.call.prepare(this.namespace, request.withResourceVersion(null, null).withLimit(null)),
						(metadata) -> {
						});
			}
			items.addAll(page.getItems());
			pending = ahead.next;
		}
		V1ListMeta metadata = first.getMetadata();
		if (metadata != null) {
			metadata.setContinue(null);
			metadata.setRemainingItemCount(null);
		}
		return first;
	}

	private @Nullable PendingList nextPage(@Nullable V1ListMeta metadata, ListRequest request) throws ApiException {
		String next = (metadata != null) ? metadata.getContinue() : null;
		return (next == null || next.isEmpty()) ? null
				: this.call.send(this.namespace, request.continuing(next, this.pageSize));
	}

	private KubernetesListObject read(@Nullable PendingList pending, MetadataListener onMetadata) throws ApiException {
		if (pending == null) {
			throw new IllegalStateException("no request was sent");
		}
		ApiException[] failed = new ApiException[1];
		KubernetesListObject list = pending.read(this.transform, (metadata) -> {
			try {
				onMetadata.read(metadata);
			}
			catch (ApiException ex) {
				failed[0] = ex;
			}
		});
		if (failed[0] != null) {
			throw failed[0];
		}
		return list;
	}

	/**
	 * Told a list's metadata before its items are read.
	 */
	@FunctionalInterface
	private interface MetadataListener {

		void read(@Nullable V1ListMeta metadata) throws ApiException;

	}

	/**
	 * The request the metadata of one answer sent ahead.
	 */
	private static final class Ahead {

		@Nullable PendingList next;

	}

}
