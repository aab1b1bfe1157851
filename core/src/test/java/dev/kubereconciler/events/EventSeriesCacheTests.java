package dev.kubereconciler.events;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventSeriesCache}, client-go's {@code tools/events} series rules.
 */
class EventSeriesCacheTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private final EventSeriesCache cache = new EventSeriesCache();

	private final List<EventsV1Event> written = new ArrayList<>();

	@Test
	void firstEventIsWrittenFirstRepeatStartsASeriesLaterRepeatsOnlyCount() {
		assertThat(observe(event("Failed", "first note"), START).getSeries()).isNull();
		EventsV1Event second = observe(event("Failed", "second note"), START.plusSeconds(1));
		assertThat(second.getSeries().getCount()).isEqualTo(2);
		// the note is not part of the key: the series keeps the first event's note
		assertThat(second.getNote()).isEqualTo("first note");
		assertThat(observe(event("Failed", "x"), START.plusSeconds(2))).isNull();
		assertThat(observe(event("Failed", "x"), START.plusSeconds(3))).isNull();
		assertThat(this.cache.openSeries()).singleElement()
			.satisfies((series) -> assertThat(series.getSeries().getCount()).isEqualTo(4))
			.satisfies((series) -> assertThat(series.getSeries().getLastObservedTime())
				.isEqualTo(START.plusSeconds(3).atOffset(ZoneOffset.UTC)));
		// what was handed to the writer does not change under later counting
		assertThat(second.getSeries().getCount()).isEqualTo(2);
	}

	@Test
	void anotherReasonIsAnotherEvent() {
		observe(event("Failed", "n"), START);
		assertThat(observe(event("Retried", "n"), START).getSeries()).isNull();
		assertThat(this.cache.size()).isEqualTo(2);
	}

	@Test
	void aSeriesEndsSixMinutesAfterItsLastObservationWithItsFinalCount() {
		observe(event("Failed", "n"), START);
		observe(event("Failed", "n"), START);
		observe(event("Failed", "n"), START.plusSeconds(60));
		assertThat(this.cache.finish(START.plusSeconds(60).plus(Duration.ofMinutes(6)))).isEmpty();
		assertThat(this.cache.finish(START.plusSeconds(60).plus(Duration.ofMinutes(6)).plusNanos(1))).singleElement()
			.satisfies((ended) -> assertThat(ended.getSeries().getCount()).isEqualTo(3));
		assertThat(this.cache.size()).isZero();
		// after the series ended, the same event starts a new object
		assertThat(observe(event("Failed", "n"), START.plus(Duration.ofMinutes(8))).getSeries()).isNull();
	}

	@Test
	void aSingleEventIsForgottenSixMinutesAfterItHappenedWithoutAWrite() {
		observe(event("Failed", "n"), START);
		assertThat(this.cache.finish(START.plus(Duration.ofMinutes(6)).plusNanos(1))).isEmpty();
		assertThat(this.cache.size()).isZero();
	}

	@Test
	void theCacheIsBoundedByEvictingTheLeastRecentlyObservedEvent() {
		for (int i = 0; i <= 4096; i++) {
			observe(event("Failed" + i, "n"), START);
		}
		assertThat(this.cache.size()).isEqualTo(4096);
	}

	@Test
	void anEvictedSeriesIsWrittenWithItsFinalCount() {
		observe(event("Failed", "n"), START);
		observe(event("Failed", "n"), START);
		observe(event("Failed", "n"), START.plusSeconds(1));
		for (int i = 1; i < EventSeriesCache.CAPACITY; i++) {
			observe(event("Other" + i, "n"), START.plusSeconds(2));
		}
		this.written.clear();
		observe(event("Newest", "n"), START.plusSeconds(3));
		assertThat(this.written).extracting(EventsV1Event::getReason).containsExactly("Newest", "Failed");
		assertThat(this.written.get(1).getSeries().getCount()).isEqualTo(3);
		assertThat(this.cache.size()).isEqualTo(EventSeriesCache.CAPACITY);
	}

	@Test
	void theLeastRecentlyObservedEventIsEvictedNotTheFirstCreated() {
		for (int i = 0; i < EventSeriesCache.CAPACITY; i++) {
			observe(event("Other" + i, "n"), START);
		}
		observe(event("Other0", "n"), START.plusSeconds(1));
		this.written.clear();
		observe(event("Newest", "n"), START.plusSeconds(2));
		// Other1, a single event, is forgotten without a write
		assertThat(this.written).extracting(EventsV1Event::getReason).containsExactly("Newest");
		assertThat(observe(event("Other0", "n"), START.plusSeconds(3))).isNull();
		assertThat(observe(event("Other1", "n"), START.plusSeconds(3)).getSeries()).isNull();
	}

	@Test
	void aWriteTheBufferRefusesLeavesNoEntryAndCountsNoRepeat() {
		this.cache.observe(event("Failed", "n"), START, (event) -> false);
		assertThat(this.cache.size()).isZero();
		observe(event("Failed", "n"), START);
		this.cache.observe(event("Failed", "n"), START.plusSeconds(1), (event) -> false);
		assertThat(observe(event("Failed", "n"), START.plusSeconds(2)).getSeries().getCount()).isEqualTo(2);
	}

	private @Nullable EventsV1Event observe(EventsV1Event event, Instant now) {
		int before = this.written.size();
		this.cache.observe(event, now, this.written::add);
		return (this.written.size() > before) ? this.written.get(this.written.size() - 1) : null;
	}

	private static EventsV1Event event(String reason, String note) {
		return new EventsV1Event().metadata(new V1ObjectMeta().name("cm." + reason).namespace("ns"))
			.eventTime(START.atOffset(ZoneOffset.UTC))
			.type("Warning")
			.reason(reason)
			.action("Sync")
			.note(note)
			.reportingController("mirror")
			.reportingInstance("pod-1")
			.regarding(new V1ObjectReference().kind("ConfigMap").namespace("ns").name("cm").uid("u1"));
	}

}
