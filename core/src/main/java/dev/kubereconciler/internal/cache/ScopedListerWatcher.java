package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.jspecify.annotations.Nullable;

/**
 * Lists and watches one type in one namespace or all of them, with an optional label
 * selector that the API server applies, so that an informer caches only the objects its
 * controllers can select.
 *
 * <p>
 * With a transform, it transforms every object it returns, each page of a list as it
 * arrives and each watch event as it is read, as client-go's {@code DeltaFIFO} transforms
 * objects as they are queued: what waits in the informer's queue is then what the cache
 * will hold, not the objects as decoded, so that a paged list holds about one page of
 * decoded objects at a time beside the transformed ones.
 *
 * @param <T> the model type
 * @param <L> the list model type
 */
public final class ScopedListerWatcher<T extends KubernetesObject, L extends KubernetesListObject>
		implements ListerWatcher<T, L> {

	private final GenericKubernetesApi<T, L> api;

	private final @Nullable String namespace;

	private final @Nullable String labelSelector;

	private final @Nullable ListCall listCall;

	private final int pageSize;

	private final @Nullable TransformFunc transform;

	// a type's own field selector, from the cache options
	private @Nullable String fieldSelector;

	/** Objects per page of a list, as client-go's reflector pages them. */
	public static final int DEFAULT_PAGE_SIZE = 500;

	/**
	 * Create a lister-watcher.
	 * @param api the API of the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 */
	public ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace,
			@Nullable String labelSelector) {
		this(api, namespace, labelSelector, null, DEFAULT_PAGE_SIZE, null);
	}

	/**
	 * Create a lister-watcher that lists in pages of a given size.
	 * @param api the API of the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 * @param pageSize the most objects per list request, or 0 to list everything in one
	 * request
	 */
	public ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace,
			@Nullable String labelSelector, int pageSize) {
		this(api, namespace, labelSelector, null, pageSize, null);
	}

	/**
	 * Create a lister-watcher that lists in pages of a given size and transforms every
	 * object it returns.
	 * @param api the API of the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 * @param pageSize the most objects per list request, or 0 to list everything in one
	 * request
	 * @param transform what to do to each object listed or watched, or {@code null} for
	 * nothing
	 */
	public ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace,
			@Nullable String labelSelector, int pageSize, @Nullable TransformFunc transform) {
		this(api, namespace, labelSelector, null, pageSize, transform);
	}

	/**
	 * Create a lister-watcher that lists through {@code listCall}, watches through the
	 * API of the type, and transforms what it returns with {@code transform}.
	 */
	ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace, @Nullable String labelSelector,
			@Nullable ListCall listCall, int pageSize, @Nullable TransformFunc transform) {
		if (pageSize < 0) {
			throw new IllegalArgumentException("pageSize must not be negative, was " + pageSize);
		}
		this.api = api;
		this.namespace = namespace;
		this.labelSelector = labelSelector;
		this.listCall = listCall;
		this.pageSize = pageSize;
		this.transform = transform;
	}

	/**
	 * List in pages, as client-go's reflector does through its pager, so that the JSON of
	 * one page at a time is held rather than that of every object: each request asks for
	 * {@code limit} objects and the next one continues where it stopped, in the same
	 * snapshot. A continue token that expired meanwhile (410 Gone) lists everything again
	 * in one request, as client-go's {@code FullListIfExpired} does. The reflector's
	 * first list, at resourceVersion 0, is read at the newest version instead, since the
	 * watch cache serves resourceVersion 0 whole whatever the limit. With a page size of
	 * 0 the list is the reflector's own: one request, at the version it asks for.
	 */
	@Override
	public L list(CallGeneratorParams params) throws ApiException {
		ListOptions options = options(params);
		if (this.pageSize == 0) {
			return listPage(options);
		}
		if ("0".equals(options.getResourceVersion())) {
			// "any version" is served whole from the watch cache, which ignores the
			// limit: the newest version, which any version allows, is served in pages
			options.setResourceVersion(null);
		}
		options.setLimit(this.pageSize);
		L first;
		try {
			first = listPage(options);
		}
		catch (ApiException ex) {
			if (ex.getCode() != 410 || options.getResourceVersion() == null) {
				throw ex;
			}
			// a relist at a compacted version, which a paged list reads exactly: read the
			// newest, as client-go's reflector does once a version is unavailable
			options.setResourceVersion(null);
			first = listPage(options);
		}
		String next = continueOf(first);
		if (next == null) {
			return first;
		}
		// the models deserialize their items into a list of their own, which takes the
		// later pages
		@SuppressWarnings("unchecked")
		List<KubernetesObject> items = (List<KubernetesObject>) first.getItems();
		while (next != null) {
			ListOptions page = options(params);
			// the token carries the snapshot's resourceVersion
			page.setResourceVersion(null);
			page.setLimit(this.pageSize);
			page.setContinue(next);
			L listed;
			try {
				listed = listPage(page);
			}
			catch (ApiException ex) {
				if (ex.getCode() != 410) {
					throw ex;
				}
				ListOptions whole = options(params);
				whole.setResourceVersion(null);
				return listPage(whole);
			}
			items.addAll(listed.getItems());
			next = continueOf(listed);
		}
		first.getMetadata().setContinue(null);
		return first;
	}

	private L listPage(ListOptions options) throws ApiException {
		L page = request(options);
		if (this.transform != null && page.getItems() != null) {
			@SuppressWarnings("unchecked")
			List<KubernetesObject> items = (List<KubernetesObject>) page.getItems();
			items.replaceAll(this.transform::transform);
		}
		return page;
	}

	@SuppressWarnings("unchecked")
	private L request(ListOptions options) throws ApiException {
		if (this.listCall != null) {
			// the list call reads the list class of the type, or CustomResourceList where
			// L is it
			return (L) this.listCall.list(this.namespace, options);
		}
		return ((this.namespace != null) ? this.api.list(this.namespace, options) : this.api.list(options))
			.throwsApiException()
			.getObject();
	}

	private static @Nullable String continueOf(KubernetesListObject list) {
		String next = (list.getMetadata() != null) ? list.getMetadata().getContinue() : null;
		return (next == null || next.isEmpty()) ? null : next;
	}

	@Override
	public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
		ListOptions options = options(params);
		Watchable<T> watch = (this.namespace != null) ? this.api.watch(this.namespace, options)
				: this.api.watch(options);
		return (this.transform != null) ? new TransformingWatch<>(watch, this.transform) : watch;
	}

	/**
	 * Have the API server select by a field selector too, before the informer starts.
	 * @param fieldSelector the selector, or {@code null} for none
	 * @return this
	 */
	ScopedListerWatcher<T, L> fieldSelector(@Nullable String fieldSelector) {
		this.fieldSelector = fieldSelector;
		return this;
	}

	private ListOptions options(CallGeneratorParams params) {
		ListOptions options = new ListOptions();
		options.setFieldSelector(this.fieldSelector);
		options.setResourceVersion(params.resourceVersion);
		options.setTimeoutSeconds(params.timeoutSeconds);
		options.setLabelSelector(this.labelSelector);
		return options;
	}

	/**
	 * Transforms the object of every event but bookmarks, which carry only a resource
	 * version, and errors, which carry none.
	 */
	private static final class TransformingWatch<T extends KubernetesObject> implements Watchable<T> {

		private final Watchable<T> watch;

		private final TransformFunc transform;

		TransformingWatch(Watchable<T> watch, TransformFunc transform) {
			this.watch = watch;
			this.transform = transform;
		}

		@Override
		public boolean hasNext() {
			return this.watch.hasNext();
		}

		@Override
		@SuppressWarnings("unchecked")
		public Watch.Response<T> next() {
			Watch.Response<T> event = this.watch.next();
			if (event.object != null && !"BOOKMARK".equals(event.type) && !"ERROR".equals(event.type)) {
				event.object = (T) this.transform.transform(event.object);
			}
			return event;
		}

		@Override
		public Iterator<Watch.Response<T>> iterator() {
			return this;
		}

		@Override
		public void close() throws IOException {
			this.watch.close();
		}

	}

}
