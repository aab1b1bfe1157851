package dev.kubereconciler.events;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.EventsV1Event;

/**
 * Where aggregated events are written: the API server through {@link ApiEventSink}.
 */
public interface EventDestination {

	/**
	 * Create an event.
	 * @param event the event, named and namespaced
	 * @throws ApiException if the API server refuses it
	 */
	void create(EventsV1Event event) throws ApiException;

	/**
	 * Write the series of an event created before.
	 * @param event the event, with its series
	 * @throws ApiException if the API server refuses it, with code 404 when the event is
	 * gone
	 */
	void patchSeries(EventsV1Event event) throws ApiException;

}
