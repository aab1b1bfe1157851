package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.util.Iterator;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.TransformFunc;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;

/**
 * Lists and watches one type in one namespace or all of them, with an optional label
 * selector that the API server applies, so that an informer caches only the objects its
 * controllers can select.
 *
 * <p>
 * With a transform, it transforms every object it returns, each object of a list as it is
 * decoded and each watch event as it is read, as client-go's {@code DeltaFIFO} transforms
 * objects as they are queued: what waits in the informer's queue is then what the cache
 * will hold, not the objects as decoded.
 *
 * @param <T> the model type
 * @param <L> the list model type
 */
public final class ScopedListerWatcher<T extends KubernetesObject, L extends KubernetesListObject>
		implements ListerWatcher<T, L> {

	private final GenericKubernetesApi<T, L> api;

	private final @Nullable String namespace;

	private final @Nullable String labelSelector;

	private final @Nullable InformerList informerList;

	private final @Nullable TransformFunc transform;

	// a type's own field selector, from the cache options
	private @Nullable String fieldSelector;

	/** Objects per page of a list, as client-go's reflector pages them. */
	public static final int DEFAULT_PAGE_SIZE = 500;

	/** The most objects a list reads whole from the API server's watch cache. */
	public static final int DEFAULT_WATCH_CACHE_LIST_MAX = 10_000;

	/**
	 * Create a lister-watcher that lists in one request through the API of the type, at
	 * the version the reflector asks for.
	 * @param api the API of the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 */
	public ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace,
			@Nullable String labelSelector) {
		this.api = api;
		this.namespace = namespace;
		this.labelSelector = labelSelector;
		this.informerList = null;
		this.transform = null;
	}

	/**
	 * Create a lister-watcher that chooses how to list by the list's size (see
	 * {@link InformerList}) and transforms every object it returns.
	 * @param apiClient the client
	 * @param type the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 * @param pageSize the most objects per list request, or 0 to list everything in one
	 * request at the version the reflector asks for
	 * @param watchCacheListMax the most objects read whole from the watch cache, or 0 to
	 * read every list in pages
	 * @param transform what to do to each object listed or watched, or {@code null} for
	 * nothing
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public ScopedListerWatcher(ApiClient apiClient, ResourceType type, @Nullable String namespace,
			@Nullable String labelSelector, int pageSize, int watchCacheListMax, @Nullable TransformFunc transform) {
		this(new GenericKubernetesApi(type.apiType(), type.listType(), type.group(), type.version(), type.plural(),
				apiClient), namespace, labelSelector, new ListCall(apiClient, type), pageSize, watchCacheListMax,
				transform);
	}

	/**
	 * Create a lister-watcher that lists through {@code listCall}, watches through the
	 * API of the type, and transforms what it returns with {@code transform}.
	 */
	ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace, @Nullable String labelSelector,
			ListCall listCall, int pageSize, int watchCacheListMax, @Nullable TransformFunc transform) {
		if (pageSize < 0) {
			throw new IllegalArgumentException("pageSize must not be negative, was " + pageSize);
		}
		if (watchCacheListMax < 0) {
			throw new IllegalArgumentException("watchCacheListMax must not be negative, was " + watchCacheListMax);
		}
		this.api = api;
		this.namespace = namespace;
		this.labelSelector = labelSelector;
		this.informerList = new InformerList(listCall, namespace, pageSize, watchCacheListMax, transform);
		this.transform = transform;
	}

	/**
	 * List as {@link InformerList} chooses: small lists whole from the watch cache, large
	 * ones in pages of a consistent read, the next page requested while the previous one
	 * is decoded; each object is transformed as it is decoded.
	 */
	@Override
	@SuppressWarnings("unchecked")
	public L list(CallGeneratorParams params) throws ApiException {
		ListRequest request = new ListRequest(this.labelSelector, this.fieldSelector, params.resourceVersion, null,
				null, null, params.timeoutSeconds);
		if (this.informerList != null) {
			// the list call reads the list class of the type, or CustomResourceList where
			// L is it
			return (L) this.informerList.list(request);
		}
		ListOptions options = options(params);
		return ((this.namespace != null) ? this.api.list(this.namespace, options) : this.api.list(options))
			.throwsApiException()
			.getObject();
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
