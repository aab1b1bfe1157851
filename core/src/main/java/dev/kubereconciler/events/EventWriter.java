package dev.kubereconciler.events;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes events from a bounded buffer, one at a time, on a task of the given executor, so
 * that recording never waits for the API server. A full buffer drops the event, as
 * client-go's broadcaster drops when its queue of {@code maxQueuedEvents = 1000} is full.
 *
 * <p>
 * A series whose event is gone (404) is created again, and a create of a series that
 * finds the event already there (409) is patched instead, as client-go's
 * {@code recordEvent} does. Other failures drop the event after one attempt: client-go
 * retries transport errors up to 12 times, 10 seconds apart, but the next repeat of a
 * series writes its count again anyway.
 */
final class EventWriter {

	private static final Logger logger = LoggerFactory.getLogger(EventWriter.class);

	private final EventDestination sink;

	private final Executor executor;

	private final BlockingQueue<EventsV1Event> buffer;

	private final EventRecorderListener listener;

	private final AtomicBoolean draining = new AtomicBoolean();

	EventWriter(EventDestination sink, Executor executor, int capacity, EventRecorderListener listener) {
		if (capacity < 1) {
			throw new IllegalArgumentException("The event buffer capacity must be at least 1, was " + capacity);
		}
		this.sink = sink;
		this.executor = executor;
		this.buffer = new ArrayBlockingQueue<>(capacity);
		this.listener = listener;
	}

	void submit(EventsV1Event event) {
		if (offer(event)) {
			scheduleDrain();
		}
	}

	/**
	 * Buffer an event without starting the writer, which {@link #flush()} does; a full
	 * buffer drops it and counts the drop.
	 * @param event the event
	 * @return whether the event was buffered
	 */
	boolean offer(EventsV1Event event) {
		if (!this.buffer.offer(event)) {
			this.listener.dropped(event.getReportingController(), EventDrop.BUFFER_FULL);
			logger.debug("Event buffer full; dropped event {} about {}", event.getReason(), event.getRegarding());
			return false;
		}
		return true;
	}

	void flush() {
		if (!this.buffer.isEmpty()) {
			scheduleDrain();
		}
	}

	int buffered() {
		return this.buffer.size();
	}

	private void scheduleDrain() {
		if (this.draining.compareAndSet(false, true)) {
			try {
				this.executor.execute(this::drain);
			}
			catch (RejectedExecutionException ex) {
				// shutting down: what is buffered stays unwritten
				this.draining.set(false);
			}
		}
	}

	private void drain() {
		try {
			EventsV1Event event;
			while ((event = this.buffer.poll()) != null) {
				write(event);
			}
		}
		finally {
			this.draining.set(false);
		}
		// an event offered after the last poll but before the flag cleared still gets
		// a drain
		if (!this.buffer.isEmpty()) {
			scheduleDrain();
		}
	}

	private void write(EventsV1Event event) {
		String controller = event.getReportingController();
		try {
			if (event.getSeries() != null) {
				try {
					this.sink.patchSeries(event);
					this.listener.written(controller);
					return;
				}
				catch (ApiException ex) {
					if (ex.getCode() != 404) {
						throw ex;
					}
				}
			}
			try {
				this.sink.create(event);
			}
			catch (ApiException ex) {
				if (ex.getCode() != 409 || event.getSeries() == null) {
					throw ex;
				}
				this.sink.patchSeries(event);
			}
			this.listener.written(controller);
		}
		catch (ApiException | RuntimeException ex) {
			this.listener.dropped(controller, EventDrop.WRITE_FAILED);
			String detail = (ex instanceof ApiException api) ? api.getCode() + " " + api.getResponseBody()
					: ex.toString();
			logger.warn("Could not write event {} about {}: {}", event.getReason(), reference(event), detail);
		}
	}

	private static String reference(EventsV1Event event) {
		return (event.getRegarding() != null) ? event.getRegarding().getKind() + " "
				+ event.getRegarding().getNamespace() + "/" + event.getRegarding().getName() : "";
	}

}
