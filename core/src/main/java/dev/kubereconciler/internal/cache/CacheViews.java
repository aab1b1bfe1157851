package dev.kubereconciler.internal.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.time.Ticker;

/**
 * The {@link CacheView}s of a manager's informers, one per type, which reconcile contexts
 * read and keep the answers to their writes in.
 */
public final class CacheViews {

	private final Map<Class<?>, CacheView> views = new LinkedHashMap<>();

	private final Predicate<Class<?>> stripsManagedFields;

	private final @Nullable ReadThrough readThrough;

	private final CacheOptions options;

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
		this(informers, ticker, stripsManagedFields, null, CacheOptions.defaults());
	}

	/**
	 * Create a view of each informer and register it, before the informers start, with
	 * the reads of the types that are read through and the declared indexes.
	 * @param informers the informers by type
	 * @param ticker the time source of the views' retention
	 * @param stripsManagedFields whether the informer of a type drops
	 * {@code metadata.managedFields}
	 * @param readThrough the reads of the read-through types, or {@code null} for none
	 * @param options the cache options, whose indexes the informers were given
	 */
	public CacheViews(Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers, Ticker ticker,
			Predicate<Class<?>> stripsManagedFields, @Nullable ReadThrough readThrough, CacheOptions options) {
		this.stripsManagedFields = stripsManagedFields;
		this.readThrough = readThrough;
		this.options = options;
		informers.forEach((type, informer) -> this.views.put(type, new CacheView(informer, ticker)));
	}

	/**
	 * Return the reads of a type when it is read through.
	 * @param type the model type
	 * @return its reads from the API server, or {@code null} when it is read from a cache
	 */
	public @Nullable ReadThrough readThrough(Class<? extends KubernetesObject> type) {
		return (this.readThrough != null && this.readThrough.covers(type)) ? this.readThrough : null;
	}

	/**
	 * Return a declared index of a type.
	 * @param type the model type
	 * @param name the index name
	 * @return the index
	 * @throws IllegalArgumentException naming the declared indexes, if the type has none
	 * of that name
	 */
	public FieldIndex<?> index(Class<?> type, String name) {
		List<FieldIndex<?>> declared = this.options.indexes(type);
		return declared.stream()
			.filter((index) -> index.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No index '" + name + "' is declared on "
					+ type.getSimpleName() + " (declared: " + declared.stream().map(FieldIndex::name).toList()
					+ "); declare it with .index(" + type.getSimpleName() + ".class, \"" + name
					+ "\", object -> values) on the controller's " + "builder, or a FieldIndex bean"));
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
					+ ".class, mapper = \"<RequestMapper bean>\"), " + "or .maps(" + name + ".class, mapper)); "
					+ "or, to read it from the API server without an informer, declare it read through "
					+ "(kube-reconciler.cache.resources[" + resourceName(type) + "].read-through=true)");
		}
		return view;
	}

	private static String resourceName(Class<?> type) {
		try {
			return KubernetesObject.class.isAssignableFrom(type)
					? CacheOptions.resourceOf(type.asSubclass(KubernetesObject.class)) : type.getSimpleName();
		}
		catch (IllegalArgumentException ex) {
			return "<plural>.<group>";
		}
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
