package dev.kubereconciler.events;

import java.util.Locale;

/**
 * Why an event was not written.
 */
public enum EventDrop {

	/** The object's spam-filter bucket was empty: more than 25 events in a burst. */
	SPAM_FILTER,

	/**
	 * The write buffer was full: events were recorded faster than the API server took
	 * them.
	 */
	BUFFER_FULL,

	/** The API server refused the event or could not be reached. */
	WRITE_FAILED,

	/**
	 * The event had no reason or action, or its object no name: the API server would
	 * refuse it.
	 */
	INVALID;

	/**
	 * Return the metric label, such as {@code spam-filter}.
	 * @return the label
	 */
	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
