package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.cache.ResyncTracker;
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

	private final ControllerDefinition definition;

	private final ReconcileSupport support;

	private final KubernetesWriter writer;

	private final ResyncTracker resyncs;

	private final @Nullable DependentsStep<T> dependents;

	BoundReconciler(ReconcileLogic<T> reconciler, ControllerDefinition definition, ReconcileSupport support,
			ResyncTracker resyncs, DependentsStep.Factory dependents) {
		this.reconciler = reconciler;
		this.definition = definition;
		this.support = support;
		this.resyncs = resyncs;
		this.writer = new KubernetesWriter(support.apiClient(), definition.name());
		Dependents<T> declared = reconciler.dependents();
		this.dependents = declared.isEmpty() ? null : dependents.create(declared, reconciler.type(),
				reconciler.finalizer() != null, definition.name(), support, this.writer);
	}

	public ReconcileLogic<T> reconciler() {
		return this.reconciler;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Result reconcile(Request request, Trigger cause) throws Exception {
		CacheView view = this.support.views().require(this.definition.watches());
		T cached = (T) view.get(request.key());
		DefaultReconcileContext<T> context = new DefaultReconcileContext<>(request, trigger(cause, request),
				this.definition.rateLimiter().numRequeues(request), this.support, this.writer);
		DependentsStep<T> dependents = this.dependents;
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
			return this.reconciler.invoke(request, this.support.copy(cached), context);
		}
		T primary = cached;
		return dependents.reconcile(primary, context, (status) -> {
			context.dependents(status);
			return this.reconciler.invoke(request, this.support.copy(primary), context);
		});
	}

	private Result cleanup(T cached, String finalizer, DefaultReconcileContext<T> context) throws Exception {
		DependentsStep<T> dependents = this.dependents;
		if (dependents != null) {
			// what garbage collection cannot reach goes before the finalizer
			dependents.cleanUp(cached);
		}
		Result result = Objects.requireNonNull(this.reconciler.cleaner())
			.cleanup(Objects.requireNonNull(this.support.copy(cached)), context);
		if (result == null || !result.isDone()) {
			// not finished: keep the finalizer and come back as the result says; a null
			// is an error for the worker, retried through the rate limiter
			return result;
		}
		// the cleanup may have written the object; remove the finalizer from the
		// newest version
		@SuppressWarnings("unchecked")
		T current = (T) this.support.views().require(cached.getClass()).get(context.request().key());
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
			this.support.views().written(patched);
		}
		return patched;
	}

	private void forgetDeleted(KubernetesObject object) {
		this.support.views().deleted(object);
	}

	private Trigger trigger(Trigger cause, Request request) {
		if (cause != Trigger.EVENT) {
			return cause;
		}
		return this.resyncs.take(request) ? Trigger.RESYNC : Trigger.EVENT;
	}

}
