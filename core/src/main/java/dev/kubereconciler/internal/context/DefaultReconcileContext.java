package dev.kubereconciler.internal.context;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.cache.LabelSelectorMatcher;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.cache.ReadThrough;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * The {@link ReconcileContext} of one reconcile: reads from the manager's cache views,
 * writes through a {@link KubernetesWriter} whose answers go back into those views.
 *
 * @param <T> the watched type
 */
final class DefaultReconcileContext<T extends KubernetesObject> implements ReconcileContext<T> {

	private static final ClassValue<Method> STATUS_GETTERS = new ClassValue<>() {

		@Override
		protected @Nullable Method computeValue(Class<?> type) {
			try {
				return type.getMethod("getStatus");
			}
			catch (NoSuchMethodException ex) {
				return null;
			}
		}

	};

	private final Request request;

	private final Trigger trigger;

	private final int failures;

	private final ReconcileSupport support;

	private final KubernetesWriter writer;

	private volatile DependentsStatus dependents = DependentsStatus.NONE;

	DefaultReconcileContext(Request request, Trigger trigger, int failures, ReconcileSupport support,
			KubernetesWriter writer) {
		this.request = request;
		this.trigger = trigger;
		this.failures = failures;
		this.support = support;
		this.writer = writer;
	}

	@Override
	public Request request() {
		return this.request;
	}

	@Override
	public int failures() {
		return this.failures;
	}

	@Override
	public Trigger trigger() {
		return this.trigger;
	}

	@Override
	public <R extends KubernetesObject> Optional<R> get(Class<R> type, String namespace, String name) {
		ReadThrough server = this.support.views().readThrough(type);
		if (server != null) {
			try {
				return Optional.ofNullable(server.get(controller(), type, namespace, name));
			}
			catch (ApiException ex) {
				throw readFailed(ex);
			}
		}
		String key = (namespace == null || namespace.isEmpty()) ? name : namespace + "/" + name;
		return Optional.ofNullable(type.cast(this.support.views().require(type).get(key))).map(this::copy);
	}

	@Override
	public <R extends KubernetesObject> List<R> list(Class<R> type, @Nullable String namespace, String labelSelector) {
		ReadThrough server = this.support.views().readThrough(type);
		if (server != null) {
			return readThrough(() -> server.list(controller(), type, namespace, labelSelector));
		}
		LabelSelectorMatcher selector = LabelSelectorMatcher.parse(labelSelector);
		return copies(type,
				this.support.views()
					.require(type)
					.list(namespace, (object) -> selector.matches(object.getMetadata().getLabels())));
	}

	@Override
	public <R extends KubernetesObject> List<R> owned(Class<R> type, KubernetesObject owner) {
		String uid = Objects.requireNonNull(owner.getMetadata().getUid(), "owner must have metadata.uid");
		ReadThrough server = this.support.views().readThrough(type);
		if (server != null) {
			List<R> listed = readThrough(() -> server.list(controller(), type, owner.getMetadata().getNamespace(), ""));
			listed.removeIf((object) -> !ownedBy(object, uid));
			return listed;
		}
		return copies(type, this.support.views().require(type).owned(uid));
	}

	@Override
	public <R extends KubernetesObject> List<R> listByIndex(Class<R> type, String index, String value) {
		FieldIndex<?> declared = this.support.views().index(type, index);
		ReadThrough server = this.support.views().readThrough(type);
		if (server != null) {
			List<R> listed = readThrough(() -> server.list(controller(), type, null, ""));
			listed.removeIf((object) -> !declared.valuesOf(object).contains(value));
			return listed;
		}
		return copies(type, this.support.views().require(type).byIndex(declared, value));
	}

	private static boolean ownedBy(KubernetesObject object, String uid) {
		List<V1OwnerReference> owners = object.getMetadata().getOwnerReferences();
		return owners != null && owners.stream().anyMatch((owner) -> uid.equals(owner.getUid()));
	}

	private String controller() {
		return this.writer.fieldManager();
	}

	/**
	 * Run a read of the API server: its objects are the caller's own, and a refused read
	 * throws unchecked, as the cached reads it stands for never fail.
	 */
	private static <V> V readThrough(ServerRead<V> read) {
		try {
			return read.read();
		}
		catch (ApiException ex) {
			throw readFailed(ex);
		}
	}

	private static IllegalStateException readFailed(ApiException ex) {
		return new IllegalStateException("A read of a read-through type from the API server failed: " + ex.getCode()
				+ " " + ex.getResponseBody(), ex);
	}

	/**
	 * A read of the API server.
	 */
	@FunctionalInterface
	private interface ServerRead<V> {

		V read() throws ApiException;

	}

	private <R extends KubernetesObject> List<R> copies(Class<R> type, List<KubernetesObject> objects) {
		List<R> copies = new ArrayList<>(objects.size());
		for (KubernetesObject object : objects) {
			copies.add(copy(type.cast(object)));
		}
		return copies;
	}

	private <R> @Nullable R copy(@Nullable R object) {
		return this.support.copy(object);
	}

	@Override
	public <R extends KubernetesObject> R create(R object) throws Exception {
		return remember(this.writer.create(object));
	}

	@Override
	public <R extends KubernetesObject> R update(R object) throws Exception {
		return remember(this.writer.update(object));
	}

	@Override
	public <R extends KubernetesObject> R patch(R object, String mergePatch) throws Exception {
		return remember(this.writer.mergePatch(object, mergePatch));
	}

	@Override
	public boolean delete(KubernetesObject object) throws Exception {
		boolean deleted = this.writer.delete(object);
		CacheView view = this.support.views().view(object.getClass());
		if (view != null) {
			view.forget(Caches.metaNamespaceKeyFunc(object));
		}
		return deleted;
	}

	@Override
	public <R extends KubernetesObject> R apply(R object, boolean force) throws Exception {
		return remember(this.writer.apply(object, force));
	}

	@Override
	public <R extends KubernetesObject> R updateStatus(R object) throws Exception {
		CacheView view = this.support.views().view(object.getClass());
		if (view != null) {
			// the view holds what the server answered or sent, never an object handed out
			KubernetesObject current = view.get(Caches.metaNamespaceKeyFunc(object));
			if (current != null && StatusJson.same(status(current), status(object))) {
				// no request, and no update event that would reconcile the object again;
				// compared as JSON, since a status class need not have equals
				return object;
			}
		}
		return remember(this.writer.updateStatus(object));
	}

	@Override
	public <R extends KubernetesObject> R applyStatus(R object, boolean force) throws Exception {
		return remember(this.writer.applyStatus(object, force));
	}

	private static @Nullable Object status(KubernetesObject object) {
		Method getter = STATUS_GETTERS.get(object.getClass());
		if (getter == null) {
			throw new IllegalArgumentException(object.getClass().getName() + " has no status");
		}
		try {
			return getter.invoke(object);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot read the status of " + object.getClass().getName(), ex);
		}
	}

	/**
	 * Keep the server's answer in the cache view and hand the caller a copy of it: a
	 * change the caller makes to what it got back must not reach the view, where a later
	 * read or status comparison would take it for the server's state.
	 */
	private <R extends KubernetesObject> R remember(R written) {
		// copied first: the caller gets the whole answer, the view the cached shape
		R copy = Objects.requireNonNull(copy(written));
		this.support.views().written(written);
		return copy;
	}

	@Override
	public void setControllerReference(KubernetesObject owner, KubernetesObject owned) {
		ControllerReferences.set(owner, owned);
	}

	@Override
	public DependentsStatus dependents() {
		return this.dependents;
	}

	void dependents(DependentsStatus dependents) {
		this.dependents = dependents;
	}

	@Override
	public EventRecorder events() {
		// the writer's field manager is the controller's name
		return this.support.events(this.writer.fieldManager());
	}

}
