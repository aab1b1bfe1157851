package dev.kubereconciler.internal.context;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.context.ReconcilerBinder.ResyncTracker;
import dev.kubereconciler.reconcile.DependentsStatus;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.reconcile.WriteFailedException;

/**
 * A {@link ReconcileLogic} bound to a controller and its manager's caches: it looks the
 * object up, copies it, keeps the finalizer and runs the cleanup, then calls the
 * reconcile logic with a {@link DefaultReconcileContext}.
 *
 * @param <T> the watched type
 */
public final class BoundReconciler<T extends KubernetesObject> implements CauseAwareReconciler {

	private final ReconcileLogic<T> reconciler;

	private final ReconcilerBinder toolkit;

	private final KubernetesWriter writer;

	private volatile @Nullable Controller controller;

	private volatile @Nullable ResyncTracker resyncs;

	private final @Nullable DependentsRunner<T> dependents;

	private final @Nullable ReadyCondition readyCondition;

	BoundReconciler(ReconcileLogic<T> reconciler, ReconcilerBinder toolkit, String controllerName) {
		this.reconciler = reconciler;
		this.toolkit = toolkit;
		this.writer = new KubernetesWriter(toolkit.apiClient(), controllerName);
		Dependents<T> declared = reconciler.dependents();
		this.dependents = declared.isEmpty() ? null : new DependentsRunner<>(declared, controllerName, toolkit,
				this.writer, reconciler.finalizer() != null);
		this.readyCondition = declared.readyCondition() ? new ReadyCondition(this.writer, toolkit, Clock.systemUTC())
				: null;
	}

	void attach(Controller controller, ResyncTracker resyncs) {
		this.controller = controller;
		this.resyncs = resyncs;
	}

	public ReconcileLogic<T> reconciler() {
		return this.reconciler;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Result reconcile(Request request, Trigger cause) throws Exception {
		Controller controller = this.controller;
		if (controller == null) {
			throw new IllegalStateException("Controller for " + this.reconciler.type().getSimpleName()
					+ " is not attached to a manager's caches");
		}
		CacheView view = this.toolkit.requireView(controller.definition().watches());
		T cached = (T) view.get(request.key());
		DefaultReconcileContext<T> context = new DefaultReconcileContext<>(request, trigger(cause, request),
				controller.rateLimiter().numRequeues(request), this.toolkit, this.writer);
		DependentsRunner<T> dependents = this.dependents;
		if (cached == null && dependents != null) {
			dependents.forget(request.key());
		}
		String finalizer = this.reconciler.finalizer();
		if (finalizer != null && cached != null) {
			V1ObjectMeta metadata = cached.getMetadata();
			boolean held = metadata.getFinalizers() != null && metadata.getFinalizers().contains(finalizer);
			if (metadata.getDeletionTimestamp() != null) {
				return held ? cleanup(cached, finalizer, context) : Result.done();
			}
			if (!held) {
				cached = patchFinalizers(cached, finalizer, true);
			}
		}
		if (cached == null && this.reconciler.takesObject()) {
			return Result.done();
		}
		if (dependents == null || cached == null) {
			return this.reconciler.invoke(request, this.toolkit.copier().copy(cached), context);
		}
		return reconcileWithDependents(request, cached, dependents, context);
	}

	/**
	 * Apply the dependents, then run the reconcile logic, which sees where they stand;
	 * the {@code Ready} condition is written last, on top of whatever status the logic
	 * wrote. A dependent that is not ready requeues the primary through the rate limiter
	 * unless the logic asked for a requeue itself; it is not an error.
	 */
	private Result reconcileWithDependents(Request request, T cached, DependentsRunner<T> dependents,
			DefaultReconcileContext<T> context) throws Exception {
		DependentsStatus status;
		try {
			status = dependents.run(cached, context);
		}
		catch (DependentFailure failure) {
			Exception cause = cause(failure);
			writeCondition(request, new DependentsStatus(false, failure.dependent(), failure.reason()), true, cause);
			throw cause;
		}
		context.dependents(status);
		Result result;
		try {
			result = this.reconciler.invoke(request, this.toolkit.copier().copy(cached), context);
		}
		catch (Exception ex) {
			writeCondition(request, status, false, ex);
			throw ex;
		}
		writeCondition(request, status, false, null);
		return (!status.ready() && result != null && result.isDone()) ? Result.requeue() : result;
	}

	private void writeCondition(Request request, DependentsStatus status, boolean failed, @Nullable Exception failure)
			throws Exception {
		ReadyCondition condition = this.readyCondition;
		if (condition == null) {
			return;
		}
		try {
			condition.write(request.key(), this.reconciler.type(), status, failed);
		}
		catch (Exception ex) {
			if (failure == null) {
				throw ex;
			}
			failure.addSuppressed(ex);
		}
	}

	private Result cleanup(T cached, String finalizer, DefaultReconcileContext<T> context) throws Exception {
		DependentsRunner<T> dependents = this.dependents;
		if (dependents != null) {
			// what garbage collection cannot reach goes before the finalizer
			try {
				dependents.cleanUp(cached);
			}
			catch (DependentFailure failure) {
				throw cause(failure);
			}
		}
		Result result = Objects.requireNonNull(this.reconciler.cleaner())
			.cleanup(Objects.requireNonNull(this.toolkit.copier().copy(cached)), context);
		if (result == null || !result.isDone()) {
			// not finished: keep the finalizer and come back as the result says; a null
			// is an error for the worker, retried through the rate limiter
			return result;
		}
		// the cleanup may have written the object; remove the finalizer from the
		// newest version
		@SuppressWarnings("unchecked")
		T current = (T) this.toolkit.requireView(cached.getClass()).get(context.request().key());
		patchFinalizers((current != null) ? current : cached, finalizer, false);
		return result;
	}

	/**
	 * Add or remove the finalizer with a merge patch that carries the resourceVersion, so
	 * that it fails with 409 Conflict, and is retried, if the object changed since it was
	 * read.
	 */
	private T patchFinalizers(T object, String finalizer, boolean add) throws Exception {
		V1ObjectMeta metadata = object.getMetadata();
		List<String> finalizers = (metadata.getFinalizers() != null) ? new ArrayList<>(metadata.getFinalizers())
				: new ArrayList<>();
		if (add) {
			finalizers.add(finalizer);
		}
		else {
			finalizers.remove(finalizer);
		}
		JsonArray values = new JsonArray();
		finalizers.forEach(values::add);
		JsonObject patchMetadata = new JsonObject();
		patchMetadata.add("finalizers", values);
		patchMetadata.addProperty("resourceVersion", metadata.getResourceVersion());
		JsonObject patch = new JsonObject();
		patch.add("metadata", patchMetadata);
		boolean gone = !add && metadata.getDeletionTimestamp() != null && finalizers.isEmpty();
		T patched;
		try {
			patched = this.writer.mergePatch(object, patch.toString());
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404 && !add) {
				// already gone: nothing holds it any more, which is what the removal
				// wanted
				forgetDeleted(object);
				return object;
			}
			throw (ex instanceof WriteFailedException failed)
					? failed.as(add ? "finalizer addition" : "finalizer removal") : ex;
		}
		if (gone) {
			// the server deleted the object with its last finalizer: until the watch
			// says so, the informer's version must not run the cleanup again
			forgetDeleted(patched);
		}
		else {
			this.toolkit.written(patched);
		}
		return patched;
	}

	// a failed write says which dependent it was for
	private static Exception cause(DependentFailure failure) {
		Exception cause = (Exception) Objects.requireNonNull(failure.getCause());
		return (cause instanceof WriteFailedException failed) ? failed.ofDependent(failure.dependent()) : cause;
	}

	private void forgetDeleted(KubernetesObject object) {
		CacheView view = this.toolkit.view(object.getClass());
		if (view != null) {
			view.deleted(object);
		}
	}

	private Trigger trigger(Trigger cause, Request request) {
		if (cause != Trigger.EVENT) {
			return cause;
		}
		ResyncTracker resyncs = this.resyncs;
		return (resyncs != null && resyncs.take(request)) ? Trigger.RESYNC : Trigger.EVENT;
	}

}
