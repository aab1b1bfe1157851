package dev.kubereconciler.internal.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.controller.ReconcileLogic.FunctionLogic;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.internal.cache.CacheViews;
import dev.kubereconciler.internal.cache.ReadThrough;
import dev.kubereconciler.internal.cache.ResyncTracker;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.time.Ticker;

/**
 * Binds the {@link ReconcileLogic}s of one controller manager to what they share. A
 * controller gets its reconcile function before the informers exist, and the informers
 * exist only once the controllers do; so a function that takes a context is bound in two
 * steps: {@link #bind} hands out the function, {@link #attach} makes the
 * {@link ReconcileSupport} of the informers' cache views and the {@link BoundReconciler}s
 * over it.
 */
public final class ReconcilerBinder {

	private final ApiClient apiClient;

	private final Function<String, EventRecorder> events;

	private final Ticker ticker;

	private final ControllerListener listener;

	private final DependentsStep.Factory dependents;

	private final List<Pending> pending = new ArrayList<>();

	/**
	 * Create a binder.
	 * @param apiClient the client that reconcile contexts write through
	 * @param events the event recorder of each controller, by name; {@code null} for none
	 * @param ticker the time source of the cache views' retention and of the dependents'
	 * readiness
	 * @param listener what hears of the dependents' applies and prunes
	 * @param dependents makes the dependents' step of a controller that has dependents
	 */
	public ReconcilerBinder(ApiClient apiClient, @Nullable Function<String, EventRecorder> events, Ticker ticker,
			ControllerListener listener, DependentsStep.Factory dependents) {
		this.apiClient = apiClient;
		this.dependents = dependents;
		this.ticker = ticker;
		this.listener = listener;
		this.events = (events != null) ? events : (controller) -> EventRecorder.noop();
	}

	/**
	 * Return what a controller's workers call: the definition's reconciler, bound to the
	 * manager's caches by {@link #attach} when it takes a context.
	 * @param definition the definition
	 * @return the reconcile function to run
	 */
	public ReconcileFunction bind(ControllerDefinition definition) {
		ReconcileLogic<?> reconciler = definition.reconciler();
		if (!reconciler.needsContext() && reconciler instanceof FunctionLogic<?> alone) {
			return alone.function();
		}
		Pending pending = new Pending(definition);
		this.pending.add(pending);
		return pending;
	}

	/**
	 * Bind the reconcilers that take a context to the informers, before the informers
	 * start: index owned objects by owner, and follow writes until the informers catch
	 * up.
	 * @param informers the informers by type
	 * @param stripsManagedFields whether the informer of a type drops
	 * {@code metadata.managedFields}, which the answers to writes then drop too before
	 * the views keep them
	 */
	public void attach(Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers,
			Predicate<Class<?>> stripsManagedFields) {
		attach(informers, stripsManagedFields, CacheOptions.defaults());
	}

	/**
	 * Bind the reconcilers that take a context to the informers, before the informers
	 * start, with the reads of the read-through types and the declared indexes.
	 * @param informers the informers by type
	 * @param stripsManagedFields whether the informer of a type drops
	 * {@code metadata.managedFields}
	 * @param options the cache options: which types are read through, which indexes are
	 * declared
	 */
	public void attach(Map<Class<?>, SharedIndexInformer<? extends KubernetesObject>> informers,
			Predicate<Class<?>> stripsManagedFields, CacheOptions options) {
		if (this.pending.isEmpty()) {
			return;
		}
		ReconcileSupport support = new ReconcileSupport(this.apiClient,
				new CacheViews(informers, this.ticker, stripsManagedFields,
						new ReadThrough(this.apiClient, options, this.listener), options),
				new ModelCopier(), this.events, this.ticker, this.listener);
		for (Pending pending : this.pending) {
			ResyncTracker resyncs = new ResyncTracker();
			CacheView.addHandler(Objects.requireNonNull(informers.get(pending.definition.watches())), resyncs);
			pending.bound = new BoundReconciler<>(pending.definition.reconciler(), pending.definition, support, resyncs,
					this.dependents);
		}
	}

	/**
	 * The reconcile function of a controller until {@link #attach} binds it.
	 */
	private static final class Pending implements CauseAwareReconciler {

		private final ControllerDefinition definition;

		private volatile @Nullable BoundReconciler<?> bound;

		Pending(ControllerDefinition definition) {
			this.definition = definition;
		}

		@Override
		public Result reconcile(Request request, Trigger cause) throws Exception {
			BoundReconciler<?> bound = this.bound;
			if (bound == null) {
				throw new IllegalStateException("Controller for " + this.definition.reconciler().type().getSimpleName()
						+ " is not attached to a manager's caches");
			}
			return bound.reconcile(request, cause);
		}

	}

}
