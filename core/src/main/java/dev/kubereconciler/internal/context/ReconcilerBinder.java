package dev.kubereconciler.internal.context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.controller.ReconcileLogic.FunctionLogic;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.cache.InformerCaches;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.Ticker;

/**
 * Binds the {@link ReconcileLogic}s of one controller manager to what they share: the
 * cache views of the informers, the object copier and the event recorders.
 */
public final class ReconcilerBinder {

	private final ApiClient apiClient;

	private final Function<String, EventRecorder> events;

	private final Ticker ticker;

	private final ControllerListener listener;

	private final ModelCopier copier = new ModelCopier();

	private final Map<Class<?>, CacheView> views = new LinkedHashMap<>();

	private final Map<String, BoundReconciler<?>> bound = new LinkedHashMap<>();

	private Predicate<Class<?>> stripsManagedFields = (type) -> false;

	/**
	 * Create a binder.
	 * @param apiClient the client that reconcile contexts write through
	 * @param events the event recorder of each controller, by name; {@code null} for none
	 * @param ticker the time source of the cache views' retention
	 */
	public ReconcilerBinder(ApiClient apiClient, @Nullable Function<String, EventRecorder> events, Ticker ticker) {
		this(apiClient, events, ticker, ControllerListener.NONE);
	}

	/**
	 * Create a binder.
	 * @param apiClient the client that reconcile contexts write through
	 * @param events the event recorder of each controller, by name; {@code null} for none
	 * @param ticker the time source of the cache views' retention and of the dependents'
	 * readiness
	 * @param listener what hears of the dependents' applies and prunes
	 */
	public ReconcilerBinder(ApiClient apiClient, @Nullable Function<String, EventRecorder> events, Ticker ticker,
			ControllerListener listener) {
		this.apiClient = apiClient;
		this.ticker = ticker;
		this.listener = listener;
		this.events = (events != null) ? events : (controller) -> EventRecorder.noop();
	}

	/**
	 * Return what a controller's workers call: the definition's reconciler, bound to this
	 * binder's caches when it takes a context.
	 * @param definition the definition
	 * @return the reconcile function to run
	 */
	public ReconcileFunction bind(ControllerDefinition definition) {
		ReconcileLogic<?> reconciler = definition.reconciler();
		if (!reconciler.needsContext() && reconciler instanceof FunctionLogic<?> alone) {
			return alone.function();
		}
		BoundReconciler<?> bound = new BoundReconciler<>(reconciler, this, definition.name());
		this.bound.put(definition.name(), bound);
		return bound;
	}

	/**
	 * Attach the bound reconcilers to their controllers and the informers, before the
	 * informers start: index owned objects by owner, and follow writes until the
	 * informers catch up.
	 * @param informers the informers by type
	 * @param controllers the controllers by name
	 * @param stripsManagedFields whether the informer of a type drops
	 * {@code metadata.managedFields}, which the answers to writes then drop too before
	 * the views keep them
	 */
	public void attach(Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers,
			Map<String, ? extends Controller> controllers, Predicate<Class<?>> stripsManagedFields) {
		if (this.bound.isEmpty()) {
			return;
		}
		this.stripsManagedFields = stripsManagedFields;
		informers.forEach((type, informer) -> this.views.put(type, new CacheView(informer, this.ticker)));
		this.bound.forEach((name, bound) -> {
			Controller controller = Objects.requireNonNull(controllers.get(name));
			ResyncTracker resyncs = new ResyncTracker();
			addHandler(Objects.requireNonNull(informers.get(controller.definition().watches())), resyncs);
			bound.attach(controller, resyncs);
		});
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static void addHandler(SharedIndexInformer informer, ResourceEventHandler handler) {
		informer.addEventHandler(handler);
	}

	@Nullable CacheView view(Class<?> type) {
		return this.views.get(type);
	}

	CacheView requireView(Class<?> type) {
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
	void written(KubernetesObject object) {
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

	ApiClient apiClient() {
		return this.apiClient;
	}

	Ticker ticker() {
		return this.ticker;
	}

	ControllerListener listener() {
		return this.listener;
	}

	ModelCopier copier() {
		return this.copier;
	}

	EventRecorder events(String controller) {
		return this.events.apply(controller);
	}

	/**
	 * Remembers which keys the informer last delivered as a resync, an update that
	 * changed nothing, so that a reconcile can tell a resync from a change.
	 */
	static final class ResyncTracker implements ResourceEventHandler<KubernetesObject> {

		private final Set<Request> resynced = ConcurrentHashMap.newKeySet();

		@Override
		public void onAdd(KubernetesObject object) {
			changed(object);
		}

		@Override
		public void onUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
			if (oldObject != null && newObject != null && oldObject.getMetadata() != null
					&& newObject.getMetadata() != null && newObject.getMetadata().getResourceVersion() != null
					&& newObject.getMetadata()
						.getResourceVersion()
						.equals(oldObject.getMetadata().getResourceVersion())) {
				this.resynced.add(InformerCaches.keyOf(newObject.getMetadata()));
			}
			else {
				changed(newObject);
			}
		}

		@Override
		public void onDelete(KubernetesObject object, boolean finalStateUnknown) {
			changed(object);
		}

		private void changed(KubernetesObject object) {
			if (object != null && object.getMetadata() != null) {
				this.resynced.remove(InformerCaches.keyOf(object.getMetadata()));
			}
		}

		boolean take(Request request) {
			return this.resynced.remove(request);
		}

	}

}
