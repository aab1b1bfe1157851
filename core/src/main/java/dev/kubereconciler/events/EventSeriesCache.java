package dev.kubereconciler.events;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Aggregates repeats of an event into an {@code EventSeries}, by the rules of client-go's
 * {@code tools/events/event_broadcaster.go} ({@code recordToSink}, {@code finishSeries},
 * {@code refreshExistingEventSeries}):
 * <ul>
 * <li>Two events are isomorphic when type, action, reason, reporting controller,
 * reporting instance, regarding and related references are equal ({@code getKey}); the
 * note is not part of the key, so a repeat with another note counts in the first event's
 * series.</li>
 * <li>The first event is created. The first repeat sets {@code series = {count: 2,
 * lastObservedTime: now}} and is written at once. Later repeats only raise the count and
 * the last observed time in memory, without a write.</li>
 * <li>Every {@link #FINISH_TIME 6 minutes}, a series not observed for 6 minutes is
 * written with its final count and forgotten, as is a single event older than 6 minutes;
 * an event after that starts a new Event object.</li>
 * <li>Every {@link #REFRESH_TIME 30 minutes}, every open series is written again, which
 * keeps its count current on the server and its object alive past the Event TTL.</li>
 * </ul>
 * Unlike client-go's map, which grows with every distinct event until the finisher runs,
 * the cache keeps at most {@link #CAPACITY} events: a new one evicts the least recently
 * observed, whose series, if it has one, is written with its final count first. An event
 * whose write the buffer refuses is not remembered, nor is a repeat whose series start it
 * refuses counted, so that every recorded event is either in a count or dropped.
 */
final class EventSeriesCache {

	/** client-go's {@code finishTime}. */
	static final Duration FINISH_TIME = Duration.ofMinutes(6);

	/** client-go's {@code refreshTime}. */
	static final Duration REFRESH_TIME = Duration.ofMinutes(30);

	/**
	 * The most events kept, as client-go's {@code tools/record} caches keep
	 * {@code maxLruCacheEntries}.
	 */
	static final int CAPACITY = 4096;

	// in access order: the eldest entry is the least recently observed
	private final Map<Key, EventsV1Event> events = new LinkedHashMap<>(16, 0.75f, true);

	/**
	 * Observe an event, and offer what it makes to write: a new event, a series that just
	 * started, or the final count of a series evicted to make room.
	 * @param event the new event
	 * @param now the current time
	 * @param write offered a copy of each write; returns {@code false} when it dropped it
	 */
	synchronized void observe(EventsV1Event event, Instant now, Predicate<EventsV1Event> write) {
		Key key = Key.of(event);
		EventsV1Event cached = this.events.get(key);
		if (cached == null) {
			if (write.test(copy(event))) {
				evictEldestIfFull(write);
				this.events.put(key, event);
			}
			return;
		}
		OffsetDateTime observed = now.atOffset(ZoneOffset.UTC);
		EventsV1EventSeries series = cached.getSeries();
		if (series != null) {
			series.count(series.getCount() + 1).lastObservedTime(observed);
			return;
		}
		EventsV1Event started = copy(cached).series(new EventsV1EventSeries().count(2).lastObservedTime(observed));
		if (write.test(started)) {
			cached.series(new EventsV1EventSeries().count(2).lastObservedTime(observed));
		}
	}

	private void evictEldestIfFull(Predicate<EventsV1Event> write) {
		if (this.events.size() < CAPACITY) {
			return;
		}
		Iterator<EventsV1Event> eldest = this.events.values().iterator();
		EventsV1Event evicted = eldest.next();
		eldest.remove();
		if (evicted.getSeries() != null) {
			write.test(copy(evicted));
		}
	}

	/**
	 * Forget the events whose series ended or that were never repeated within
	 * {@link #FINISH_TIME}.
	 * @param now the current time
	 * @return copies of the ended series, to be written with their final counts
	 */
	synchronized List<EventsV1Event> finish(Instant now) {
		Instant cutoff = now.minus(FINISH_TIME);
		List<EventsV1Event> ended = new ArrayList<>();
		for (Iterator<EventsV1Event> it = this.events.values().iterator(); it.hasNext();) {
			EventsV1Event event = it.next();
			EventsV1EventSeries series = event.getSeries();
			if (series != null) {
				if (series.getLastObservedTime().toInstant().isBefore(cutoff)) {
					ended.add(copy(event));
					it.remove();
				}
			}
			else if (event.getEventTime().toInstant().isBefore(cutoff)) {
				it.remove();
			}
		}
		return ended;
	}

	/**
	 * Return copies of every open series, to be written again.
	 * @return the series
	 */
	synchronized List<EventsV1Event> openSeries() {
		List<EventsV1Event> open = new ArrayList<>();
		for (EventsV1Event event : this.events.values()) {
			if (event.getSeries() != null) {
				open.add(copy(event));
			}
		}
		return open;
	}

	synchronized int size() {
		return this.events.size();
	}

	/**
	 * Copy an event so that later counting does not change what a writer sends; only the
	 * series is ever changed in place, so only it is copied deeply.
	 */
	static EventsV1Event copy(EventsV1Event event) {
		EventsV1EventSeries series = event.getSeries();
		return new EventsV1Event().apiVersion(event.getApiVersion())
			.kind(event.getKind())
			.metadata(event.getMetadata())
			.eventTime(event.getEventTime())
			.type(event.getType())
			.action(event.getAction())
			.reason(event.getReason())
			.note(event.getNote())
			.reportingController(event.getReportingController())
			.reportingInstance(event.getReportingInstance())
			.regarding(event.getRegarding())
			.related(event.getRelated())
			.series((series != null)
					? new EventsV1EventSeries().count(series.getCount()).lastObservedTime(series.getLastObservedTime())
					: null);
	}

	/**
	 * client-go's {@code eventKey}.
	 */
	private record Key(String type, String action, String reason, String reportingController, String reportingInstance,
			V1ObjectReference regarding, V1ObjectReference related) {

		static Key of(EventsV1Event event) {
			return new Key(event.getType(), event.getAction(), event.getReason(), event.getReportingController(),
					event.getReportingInstance(), event.getRegarding(), event.getRelated());
		}

	}

}
