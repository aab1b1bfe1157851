package dev.kubereconciler.internal.cache;

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

	/**
	 * Create a lister-watcher.
	 * @param api the API of the type
	 * @param namespace the namespace, or {@code null} for all namespaces
	 * @param labelSelector the selector the server applies, or {@code null} for none
	 */
	public ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace,
			@Nullable String labelSelector) {
		this(api, namespace, labelSelector, null);
	}

	/**
	 * Create a lister-watcher that lists through {@code genericList} when the type has no
	 * list class of its own, and watches through the API of the type.
	 */
	ScopedListerWatcher(GenericKubernetesApi<T, L> api, @Nullable String namespace, @Nullable String labelSelector,
			@Nullable GenericListCall genericList) {
		this.api = api;
		this.namespace = namespace;
		this.labelSelector = labelSelector;
		this.genericList = genericList;
	}

	@Override
	@SuppressWarnings("unchecked")
	public L list(CallGeneratorParams params) throws ApiException {
		ListOptions options = options(params);
		if (this.genericList != null) {
			// the list class is CustomResourceList, so L is it
			return (L) this.genericList.list(this.namespace, options);
		}
		return ((this.namespace != null) ? this.api.list(this.namespace, options) : this.api.list(options))
			.throwsApiException()
			.getObject();
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
