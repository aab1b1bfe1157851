package dev.kubereconciler.events;

/**
 * Receives what event recording does, for metrics; implementations must be thread-safe
 * and fast.
 */
public interface EventRecorderListener {

	/** A listener that ignores everything. */
	EventRecorderListener NONE = new EventRecorderListener() {
	};

	/**
	 * An event was written to the API server, as a new Event or as an update of a series.
	 * @param controller the reporting controller
	 */
	default void written(String controller) {
	}

	/**
	 * An event was dropped.
	 * @param controller the reporting controller
	 * @param reason why
	 */
	default void dropped(String controller, EventDrop reason) {
	}

}
