package dev.kubereconciler.internal.context;

import java.util.function.Function;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.events.EventRecorder;
import dev.kubereconciler.internal.cache.CacheViews;
import dev.kubereconciler.time.Ticker;

/**
 * What the reconcile side of one controller manager shares, made once its informers
 * exist: the client that contexts write through, the cache views they read, the copier of
 * cached objects, the event recorders, the clock of the dependents' readiness and the
 * listener of their applies and prunes.
 *
 * @param apiClient the client that reconcile contexts write through
 * @param views the cache views of the manager's informers
 * @param copier makes the private copies of cached objects that reconcilers get
 * @param eventRecorders the event recorder of each controller, by name
 * @param ticker the time source of the dependents' readiness
 * @param listener what hears of the dependents' applies and prunes
 */
public record ReconcileSupport(ApiClient apiClient, CacheViews views, ModelCopier copier,
		Function<String, EventRecorder> eventRecorders, Ticker ticker, ControllerListener listener) {

	/**
	 * Return the event recorder of a controller.
	 * @param controller the controller's name
	 * @return its recorder
	 */
	public EventRecorder events(String controller) {
		return this.eventRecorders.apply(controller);
	}

	/**
	 * Return a private copy of a cached object.
	 * @param <R> the object's type
	 * @param object the object, or {@code null}
	 * @return the copy, or {@code null}
	 */
	public <R> @Nullable R copy(@Nullable R object) {
		return this.copier.copy(object);
	}

}
