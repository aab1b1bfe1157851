package dev.kubereconciler.internal.cache;

import java.util.function.BiConsumer;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.informer.cache.DeltaFIFO;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;

/**
 * The informer factory of a manager that was not given one, or was given the one
 * {@code ControllerManager.informerFactory} makes: the informers a manager makes through
 * it store their objects in a {@link NamespacedIndexer} rather than client-java's
 * {@code Cache}. It starts and stops them as any {@link SharedInformerFactory} does.
 */
public final class InformerFactory extends SharedInformerFactory {

	/**
	 * Create a factory.
	 * @param apiClient the client for the API server, with no read timeout
	 */
	public InformerFactory(ApiClient apiClient) {
		super(apiClient);
	}

	/**
	 * Return the informer of a type, made on first use.
	 * @param <T> the model type
	 * @param <L> the list model type
	 * @param listerWatcher how the informer lists and watches
	 * @param type the model class
	 * @param resyncMillis the resync period in milliseconds, or 0 for none
	 * @return the informer
	 */
	@SuppressWarnings("unchecked")
	synchronized <T extends KubernetesObject, L extends KubernetesListObject> SharedIndexInformer<T> informerFor(
			ListerWatcher<T, L> listerWatcher, Class<T> type, long resyncMillis) {
		NamespacedIndexer<T> indexer = new NamespacedIndexer<>();
		SharedIndexInformer<T> informer = new DefaultSharedIndexInformer<>(type, listerWatcher, resyncMillis,
				new DeltaFIFO(Caches::deletionHandlingMetaNamespaceKeyFunc, indexer), indexer);
		SharedIndexInformer<T> existing = this.informers.putIfAbsent(TypeToken.get(type).getType(), informer);
		return (existing != null) ? existing : informer;
	}

	/**
	 * Make the informer of a type in one namespace, kept by {@link NamespacedInformers}
	 * rather than by any factory, which holds one informer per type.
	 * @param <T> the model type
	 * @param <L> the list model type
	 * @param listerWatcher how the informer lists and watches that namespace
	 * @param type the model class
	 * @param resyncMillis the resync period in milliseconds, or 0 for none
	 * @param failures what to do with a failed list or watch
	 * @return the informer, not started
	 */
	static <T extends KubernetesObject, L extends KubernetesListObject> SharedIndexInformer<T> namespaceInformer(
			ListerWatcher<T, L> listerWatcher, Class<T> type, long resyncMillis,
			BiConsumer<Class<?>, Throwable> failures) {
		NamespacedIndexer<T> indexer = new NamespacedIndexer<>();
		return new DefaultSharedIndexInformer<>(type, listerWatcher, resyncMillis,
				new DeltaFIFO(Caches::deletionHandlingMetaNamespaceKeyFunc, indexer), indexer, failures::accept);
	}

}
