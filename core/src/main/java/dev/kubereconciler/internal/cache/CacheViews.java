package dev.kubereconciler.internal.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.time.Ticker;

/**
 * The {@link CacheView}s of a manager's informers, one per type, which reconcile contexts
 * read and keep the answers to their writes in.
 */
public final class CacheViews {

	private final Map<Class<?>, CacheView> views = new LinkedHashMap<>();

	private final Predicate<Class<?>> stripsManagedFields;

	/**
	 * Create a view of each informer and register it, before the informers start.
	 * @param informers the informers by type
	 * @param ticker the time source of the views' retention
	 * @param stripsManagedFields whether the informer of a type drops
	 * {@code metadata.managedFields}, which the answers to writes then drop too before
	 * the views keep them
	 */
	public CacheViews(Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers, Ticker ticker,
			Predicate<Class<?>> stripsManagedFields) {
		this.stripsManagedFields = stripsManagedFields;
		informers.forEach((type, informer) -> this.views.put(type, new CacheView(informer, ticker)));
	}

	/**
	 * Return the view of a type.
	 * @param type the model type
	 * @return its view, or {@code null} if no informer caches it
	 */
	public @Nullable CacheView view(Class<?> type) {
		return this.views.get(type);
	}

	/**
	 * Return the view of a type that a reconciler reads.
	 * @param type the model type
	 * @return its view
	 * @throws IllegalArgumentException saying how to give the type an informer, if none
	 * caches it
	 */
	public CacheView require(Class<?> type) {
		CacheView view = this.views.get(type);
		if (view == null) {
			String name = type.getSimpleName();
			throw new IllegalArgumentException("No controller of this manager watches, owns or maps " + type.getName()
					+ ", so no informer caches it. To read it from the cache, give it an informer in one of three ways: "
					+ "a controller that watches it (@Reconciler(watches = " + name + ".class)); 'owns' on this "
					+ "controller, when this controller is its controlling owner (owns = " + name + ".class, or "
					+ ".owns(" + name + ".class)); or a mapped watch, when its changes should reconcile this "
					+ "controller's objects (maps = @Watch(type = " + name
					+ ".class, mapper = \"<RequestMapper bean>\"), " + "or .maps(" + name + ".class, mapper))");
		}
		return view;
	}

	/**
	 * Keep the server's answer to a write in the view of its type, shaped as the informer
	 * shapes what it caches: a read must not tell a written version from the informer's
	 * one of the same resourceVersion, as it did by their managed fields.
	 * @param object the answer, which the view keeps and this may change
	 */
	public void written(KubernetesObject object) {
		if (object != null) {
			CacheView view = this.views.get(object.getClass());
			if (view != null) {
				if (object.getMetadata() != null && this.stripsManagedFields.test(object.getClass())) {
					object.getMetadata().setManagedFields(null);
				}
				view.written(object);
			}
		}
	}

	/**
	 * Record in the view of its type that a write removed an object.
	 * @param object the server's last answer about the object
	 * @see CacheView#deleted(KubernetesObject)
	 */
	public void deleted(KubernetesObject object) {
		CacheView view = this.views.get(object.getClass());
		if (view != null) {
			view.deleted(object);
		}
	}

}
