package dev.kubereconciler.internal.cache;

import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.jspecify.annotations.Nullable;

/**
 * Lists and watches one type in one namespace or all of them, with an optional label
 * selector that the API server applies, so that an informer caches only the objects its
 * controllers can select.
 *
 * @param <T> the model type
 * @param <L> the list model type
 */
public final class ScopedListerWatcher<T extends KubernetesObject, L extends KubernetesListObject>
		implements ListerWatcher<T, L> {

	private final GenericKubernetesApi<T, L> api;

	private final @Nullable String namespace;

	private final @Nullable String labelSelector;

	private final @Nullable GenericListCall genericList;

	private final int pageSize;

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
		this(api, namespace, labelSelector, null, DEFAULT_PAGE_SIZE);
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
		this(api, namespace, labelSelector, null, pageSize);
	}

	/**
	 * Create a lister-watcher that lists through {@code genericList} when the type has no
	 * list class of its own, and watches through the API of the type.
	 */
	ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace, @Nullable String labelSelector,
			@Nullable GenericListCall genericList, int pageSize) {
		if (pageSize < 0) {
			throw new IllegalArgumentException("pageSize must not be negative, was " + pageSize);
		}
		this.api = api;
		this.namespace = namespace;
		this.labelSelector = labelSelector;
		this.genericList = genericList;
		this.pageSize = pageSize;
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
			// limit:
			// the newest version, which any version allows, is served in pages
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

	@SuppressWarnings("unchecked")
	private L listPage(ListOptions options) throws ApiException {
		if (this.genericList != null) {
			// the list class is CustomResourceList, so L is it
			return (L) this.genericList.list(this.namespace, options);
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
		return (this.namespace != null) ? this.api.watch(this.namespace, options) : this.api.watch(options);
	}

	private ListOptions options(CallGeneratorParams params) {
		ListOptions options = new ListOptions();
		options.setResourceVersion(params.resourceVersion);
		options.setTimeoutSeconds(params.timeoutSeconds);
		options.setLabelSelector(this.labelSelector);
		return options;
	}

}
