package dev.kubereconciler.sample.external;

import java.util.List;
import java.util.Optional;

import dev.kubereconciler.sample.external.ExternalWidgetApi.ExternalWidget;

/**
 * Where the simulated external API keeps its widgets: this process's memory, or a store
 * that the replicas of a deployment share, as they would share a real external system.
 */
public interface ExternalWidgetStore {

	/**
	 * Create the widget for an idempotency key, or return the one already created for it.
	 * @param key the idempotency key
	 * @param color the color
	 * @param size the size
	 * @return the widget the store holds for the key
	 */
	ExternalWidget provision(String key, String color, int size);

	/**
	 * Change a widget.
	 * @param id the external id
	 * @param color the new color
	 * @param size the new size
	 * @return whether the store held the widget
	 */
	boolean update(String id, String color, int size);

	/**
	 * Look a widget up.
	 * @param id the external id
	 * @return the widget, empty if the store does not hold it
	 */
	Optional<ExternalWidget> find(String id);

	/**
	 * Look up the widget created for an idempotency key.
	 * @param key the idempotency key
	 * @return the widget, empty if the store holds none for the key
	 */
	Optional<ExternalWidget> findByKey(String key);

	/**
	 * Delete a widget; deleting one the store does not hold does nothing.
	 * @param id the external id
	 */
	void remove(String id);

	/**
	 * Return every widget the store holds.
	 * @return the widgets
	 */
	List<ExternalWidget> widgets();

}
