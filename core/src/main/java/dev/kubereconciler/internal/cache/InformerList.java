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
 * A first request asks for one object, at the version the reflector asks for (the newest
 * for its first list, which asks for any), and learns from the server how many there are
 * ({@code remainingItemCount}). Up to {@code watchCacheListMax} objects, the rest is one
 * request that the watch cache answers from memory at once: at any version
 * ({@code resourceVersion=0}) for a first list, as client-go's reflector lists, and for a
 * relist at the reflector's last version or newer ({@code NotOlderThan}), which the cache
 * has passed. Not at the first request's version, which the cache may not have seen for
 * up to 3 s when nothing of the type was written since. Above it, or when the server
 * gives no count (with a label selector), pages of {@code pageSize} from the first
 * request's snapshot, each requested as soon as the previous page's continue token is
 * read and before its items are decoded, so that the server prepares one page while the
 * client decodes the other: one page ahead, no more. With a page size of 0, the list is
 * the reflector's own: one request at the version it asks for. With a
 * {@code watchCacheListMax} of 0, every list is paged from its first request.
 *
 * <p>
 * A version the server no longer has (410 Gone, a relist after a long disconnection) is
 * read at the newest instead, as client-go's reflector does once a version is
 * unavailable; a continue token that expired during the list makes one unpaged list of
 * everything, as client-go's {@code FullListIfExpired} does. The list's resourceVersion
 * is the snapshot's, or the watch cache's, from which the watch starts.
 */
final class InformerList {

	/** What the first request of a list that chooses its way asks for. */
	static final int PROBE_LIMIT = 1;

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
		boolean selects = first.selects();
		// with a selector the server gives no count: the first request leaves it out, to
		// learn how many objects the selector chooses from
		ListRequest probe = first.withoutSelectors().withLimit(PROBE_LIMIT);
		Ahead ahead = new Ahead();
		KubernetesListObject probed;
		try {
			probed = firstPage(probe, (metadata) -> {
				ahead.plan = ListPlan.after(metadata, PROBE_LIMIT, !selects, this.watchCacheListMax);
				if (ahead.plan == ListPlan.WATCH_CACHE) {
					// not the first request's version, which the watch cache may wait
					// 3 s for; any version answers at once, as does the newest the
					// reflector saw; the watch brings what came after
					ahead.next = this.call.send(this.namespace,
							(first.resourceVersion() != null)
									? first.withLimit(null)
										.withResourceVersion(first.resourceVersion(), ListRequest.NOT_OLDER_THAN)
									: first.withLimit(null).withResourceVersion("0", null));
				}
				else if (ahead.plan == ListPlan.PAGES && !selects) {
					ahead.next = nextPage(metadata, first);
				}
			});
		}
		catch (ApiException | RuntimeException ex) {
			if (ahead.next != null) {
				ahead.next.cancel();
			}
			throw ex;
		}
		return switch (ahead.plan) {
			case COMPLETE -> probed;
			case WATCH_CACHE -> fromWatchCache(ahead.next, first);
			case PAGES -> (!selects) ? remainingPages(probed, ahead.next, first)
					: paged(first.withResourceVersion(null, null).withLimit(this.pageSize));
		};
	}

	private KubernetesListObject fromWatchCache(@Nullable PendingList whole, ListRequest first) throws ApiException {
		try {
			return read(whole, (metadata) -> {
			});
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
	 * What the metadata of one answer decided, and the request it sent ahead.
	 */
	private static final class Ahead {

		ListPlan plan = ListPlan.PAGES;

		@Nullable PendingList next;

	}

}
