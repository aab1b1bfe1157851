package dev.kubereconciler.events;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.util.ModelMapper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.time.DelayScheduler;

/**
 * Creates the {@link EventRecorder} of each controller and runs what they share: the spam
 * filter, the series cache and the write buffer.
 *
 * <p>
 * An event first passes the {@link SpamFilter spam filter} (client-go's per source and
 * object token bucket: burst 25, one more every 5 minutes), then joins its
 * {@link EventSeriesCache series}, then waits in the bounded buffer for the writer.
 * client-go's {@code tools/record} correlator counts an event before it filters it
 * ({@code EventCorrelate} calls the aggregator and the logger, then {@code filterFunc}),
 * so a dropped occurrence still raises the count that the next accepted one writes;
 * {@code tools/events} has no spam filter at all. Filtering first here means every
 * recorded event is either in a series count or in the
 * {@code kube_reconciler_events_dropped_total} counter, never in both.
 *
 * <p>
 * {@link #start(DelayScheduler)} runs {@link #finishSeries()} every
 * {@link #FINISH_PERIOD} and {@link #refreshSeries()} every {@link #REFRESH_PERIOD} on a
 * scheduler of their own, as client-go runs them in two {@code wait.Until} loops apart
 * from the writer: both only take the series lock and offer writes to the buffer, so a
 * backlogged writer never delays them. The series cache keeps at most 4096 events, and an
 * event that the full buffer dropped leaves no entry in it.
 */
public final class EventRecorders {

	/** The default write buffer capacity: client-go's {@code maxQueuedEvents}. */
	public static final int DEFAULT_BUFFER_CAPACITY = 1000;

	/**
	 * How often series that ended are written and forgotten: client-go's
	 * {@code finishTime}.
	 */
	public static final Duration FINISH_PERIOD = EventSeriesCache.FINISH_TIME;

	/** How often open series are written again: client-go's {@code refreshTime}. */
	public static final Duration REFRESH_PERIOD = EventSeriesCache.REFRESH_TIME;

	// the API server's limits: validation.NoteLengthLimit and the reporting
	// instance's length
	private static final int NOTE_LIMIT_BYTES = 1024;

	private static final int INSTANCE_LIMIT = 128;

	private static final Logger logger = LoggerFactory.getLogger(EventRecorders.class);

	private final Clock clock;

	private final String reportingInstance;

	private final EventRecorderListener listener;

	private final SpamFilter spamFilter = new SpamFilter();

	private final EventSeriesCache series = new EventSeriesCache();

	private final EventWriter writer;

	private final Map<String, EventRecorder> recorders = new ConcurrentHashMap<>();

	private final AtomicLong lastNameNanos = new AtomicLong(Long.MIN_VALUE);

	private final List<PeriodicLoop> loops = new ArrayList<>();

	/**
	 * Create the recorders.
	 * @param sink where events are written
	 * @param writerExecutor runs the writer; one thread is enough, writes are sequential
	 * @param clock the clock for event times, series and the spam filter
	 * @param reportingInstance the {@code reportingInstance} of every event, such as the
	 * pod name
	 * @param bufferCapacity how many events may wait for the writer before new ones are
	 * dropped
	 * @param listener receives writes and drops
	 */
	public EventRecorders(EventDestination sink, Executor writerExecutor, Clock clock, String reportingInstance,
			int bufferCapacity, EventRecorderListener listener) {
		this.clock = Objects.requireNonNull(clock, "clock must not be null");
		String instance = Objects.requireNonNull(reportingInstance, "reportingInstance must not be null");
		this.reportingInstance = (instance.length() > INSTANCE_LIMIT) ? instance.substring(0, INSTANCE_LIMIT)
				: instance;
		this.listener = (listener != null) ? listener : EventRecorderListener.NONE;
		this.writer = new EventWriter(sink, writerExecutor, bufferCapacity, this.listener);
		this.writerExecutor = writerExecutor;
		this.bufferCapacity = bufferCapacity;
	}

	// clusters (issue 40): the recorders of an engaged cluster, alike but for the sink

	private final Executor writerExecutor;

	private final int bufferCapacity;

	/**
	 * Return new recorders alike these, with the same writer executor, clock, reporting
	 * instance, buffer capacity and listener, that write to another sink: those of an
	 * engaged cluster, whose Events land in it.
	 * @param sink where the new recorders write
	 * @return the recorders, not started
	 */
	public EventRecorders withDestination(EventDestination sink) {
		return new EventRecorders(sink, this.writerExecutor, this.clock, this.reportingInstance, this.bufferCapacity,
				this.listener);
	}

	/**
	 * Return the recorder of a controller, which reports as {@code reportingController}.
	 * @param controller the controller name
	 * @return the recorder
	 */
	public EventRecorder forController(String controller) {
		return this.recorders.computeIfAbsent(controller, (name) -> new ControllerEventRecorder(this, name));
	}

	/**
	 * Start finishing series every {@link #FINISH_PERIOD} and refreshing them every
	 * {@link #REFRESH_PERIOD}, each period counted from the end of the previous run.
	 * @param scheduler runs both jobs; it should not be the writer's thread, so that a
	 * backlog of writes does not hold them back
	 * @throws IllegalStateException if they were started before
	 */
	public synchronized void start(DelayScheduler scheduler) {
		if (!this.loops.isEmpty()) {
			throw new IllegalStateException("The event series jobs were started already");
		}
		this.loops.add(new PeriodicLoop(scheduler, FINISH_PERIOD, this::finishSeries, "series finisher"));
		this.loops.add(new PeriodicLoop(scheduler, REFRESH_PERIOD, this::refreshSeries, "series refresher"));
		this.loops.forEach(PeriodicLoop::start);
	}

	/**
	 * Stop finishing and refreshing series; what is buffered is still written.
	 */
	public synchronized void stop() {
		this.loops.forEach(PeriodicLoop::stop);
	}

	/**
	 * Write the final count of every series not observed for {@link #FINISH_PERIOD} and
	 * forget it, and forget single events older than that.
	 */
	public void finishSeries() {
		this.series.finish(this.clock.instant()).forEach(this.writer::submit);
	}

	/**
	 * Write every open series again with its current count.
	 */
	public void refreshSeries() {
		this.series.openSeries().forEach(this.writer::submit);
	}

	/**
	 * Return the {@code reportingInstance} of the events.
	 * @return the instance
	 */
	public String reportingInstance() {
		return this.reportingInstance;
	}

	void record(String controller, KubernetesObject regarding, String type, String reason, String action, String note) {
		try {
			V1ObjectReference reference = reference(regarding);
			if (reference == null || isBlank(reason) || isBlank(action)) {
				this.listener.dropped(controller, EventDrop.INVALID);
				logger.warn("Controller '{}' recorded an event without an object name, reason or action; dropped "
						+ "(reason={}, action={})", controller, reason, action);
				return;
			}
			Instant now = this.clock.instant();
			if (!this.spamFilter.tryAccept(spamKey(controller, reference, type), now)) {
				this.listener.dropped(controller, EventDrop.SPAM_FILTER);
				return;
			}
			// the cache offers its writes to the buffer under its lock, so that an event
			// the full buffer refuses leaves no entry and an Event's create is buffered
			// before its series
			this.series.observe(event(controller, reference, type, reason, action, note, now), now, this.writer::offer);
			this.writer.flush();
		}
		catch (RuntimeException ex) {
			// recording must never fail a reconcile
			this.listener.dropped(controller, EventDrop.INVALID);
			logger.warn("Controller '{}' could not record event {}", controller, reason, ex);
		}
	}

	private EventsV1Event event(String controller, V1ObjectReference regarding, String type, String reason,
			String action, String note, Instant now) {
		String namespace = isBlank(regarding.getNamespace()) ? "default" : regarding.getNamespace();
		// client-go's util.GenerateEventName: the object's name and the time in hex
		// nanoseconds, made strictly increasing so that two events in one clock tick do
		// not share a name
		long clockNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
		long nanos = this.lastNameNanos.accumulateAndGet(clockNanos, (last, next) -> Math.max(last + 1, next));
		String name = regarding.getName() + "." + Long.toHexString(nanos);
		return new EventsV1Event().apiVersion("events.k8s.io/v1")
			.kind("Event")
			.metadata(new V1ObjectMeta().name(name).namespace(namespace))
			.eventTime(now.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC))
			.type(type)
			.reason(reason)
			.action(action)
			.note(truncate(note))
			.reportingController(controller)
			.reportingInstance(this.reportingInstance)
			.regarding(regarding);
	}

	/**
	 * client-go's {@code reference.GetReference}: the resource version is part of the
	 * reference, so an event about a newer version of the object is not a repeat of one
	 * about an older.
	 */
	private static @Nullable V1ObjectReference reference(@Nullable KubernetesObject object) {
		V1ObjectMeta metadata = (object != null) ? object.getMetadata() : null;
		if (object == null || metadata == null || isBlank(metadata.getName())) {
			return null;
		}
		String apiVersion = object.getApiVersion();
		String kind = object.getKind();
		if (apiVersion == null || kind == null) {
			// objects listed by an informer may lack their type metadata
			GroupVersionKind gvk = ModelMapper.getGroupVersionKindByClass(object.getClass());
			if (gvk == null) {
				gvk = ModelMapper.preBuiltGetGroupVersionKindByClass(object.getClass()).orElse(null);
			}
			if (gvk != null) {
				boolean core = gvk.getGroup() == null || gvk.getGroup().isEmpty() || "core".equals(gvk.getGroup());
				apiVersion = core ? gvk.getVersion() : gvk.getGroup() + "/" + gvk.getVersion();
				kind = gvk.getKind();
			}
		}
		return new V1ObjectReference().apiVersion(apiVersion)
			.kind(kind)
			.namespace(metadata.getNamespace())
			.name(metadata.getName())
			.uid(metadata.getUid())
			.resourceVersion(metadata.getResourceVersion());
	}

	/**
	 * client-go's {@code getSpamKey}: the source and the object (not its resource version
	 * or field path) and the event type; reason and note do not matter.
	 */
	private Object spamKey(String controller, V1ObjectReference regarding, String type) {
		return List.of(controller, this.reportingInstance, String.valueOf(regarding.getKind()),
				String.valueOf(regarding.getNamespace()), regarding.getName(), String.valueOf(regarding.getUid()),
				String.valueOf(regarding.getApiVersion()), type);
	}

	private static @Nullable String truncate(@Nullable String note) {
		if (note == null) {
			return null;
		}
		byte[] bytes = note.getBytes(StandardCharsets.UTF_8);
		if (bytes.length <= NOTE_LIMIT_BYTES) {
			return note;
		}
		int end = 0;
		int used = 0;
		while (end < note.length()) {
			int codePoint = note.codePointAt(end);
			int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
			if (used + size > NOTE_LIMIT_BYTES) {
				break;
			}
			used += size;
			end += Character.charCount(codePoint);
		}
		return note.substring(0, end);
	}

	private static boolean isBlank(String value) {
		return value == null || value.isBlank();
	}

	int buffered() {
		return this.writer.buffered();
	}

}
