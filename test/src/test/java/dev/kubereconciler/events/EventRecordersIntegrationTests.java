package dev.kubereconciler.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventRecorders} against the real test API server. Writes run on the
 * calling thread (a direct executor) or on demand (a held executor), and time is a manual
 * clock, so every count is exact.
 */
@KubernetesTest
class EventRecordersIntegrationTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	ApiClient client;

	TestNamespace namespace;

	private final ManualClock ticker = new ManualClock();

	private final Clock clock = this.ticker.wallClock(START);

	private final CountingListener listener = new CountingListener();

	@Test
	void hundredIdenticalWarningsMakeOneEventAndItsSeriesPlusTheDropsAccountForAll() throws ApiException {
		V1ConfigMap regarding = configMap("burst");
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), Runnable::run, this.clock, "pod-1",
				EventRecorders.DEFAULT_BUFFER_CAPACITY, this.listener);
		EventRecorder recorder = recorders.forController("mirror");
		for (int i = 0; i < 100; i++) {
			recorder.warning(regarding, "SyncFailed", "Sync", "the target namespace is gone");
		}
		// client-go's spam filter: a burst of 25 per source and object, the other
		// 75 dropped
		assertThat(this.listener.dropped(EventDrop.SPAM_FILTER)).isEqualTo(75);
		// of the 25: the first created the Event, the second started its series, 23
		// only counted
		assertThat(this.listener.written).hasValue(2);
		EventsV1Event event = onlyEvent(regarding.getMetadata().getName());
		assertThat(event.getSeries().getCount()).isEqualTo(2);
		assertThat(event.getType()).isEqualTo("Warning");
		assertThat(event.getReportingController()).isEqualTo("mirror");
		assertThat(event.getReportingInstance()).isEqualTo("pod-1");
		assertThat(event.getRegarding().getKind()).isEqualTo("ConfigMap");
		assertThat(event.getRegarding().getUid()).isEqualTo(regarding.getMetadata().getUid());
		assertThat(event.getNote()).isEqualTo("the target namespace is gone");
		// six minutes without a repeat end the series, which writes its final count
		this.ticker.advance(Duration.ofMinutes(6));
		recorders.finishSeries();
		assertThat(onlyEvent(regarding.getMetadata().getName()).getSeries().getCount()).isEqualTo(2);
		this.ticker.advance(Duration.ofNanos(1000));
		recorders.finishSeries();
		EventsV1Event finished = onlyEvent(regarding.getMetadata().getName());
		assertThat(finished.getSeries().getCount()).isEqualTo(25);
		assertThat(finished.getSeries().getCount() + this.listener.dropped(EventDrop.SPAM_FILTER)).isEqualTo(100);
		assertThat(this.listener.dropped(EventDrop.BUFFER_FULL) + this.listener.dropped(EventDrop.WRITE_FAILED))
			.isZero();
	}

	@Test
	void refreshWritesTheCurrentCountOfAnOpenSeries() throws ApiException {
		V1ConfigMap regarding = configMap("refreshed");
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), Runnable::run, this.clock, "pod-1",
				EventRecorders.DEFAULT_BUFFER_CAPACITY, this.listener);
		for (int i = 0; i < 7; i++) {
			recorders.forController("mirror").normal(regarding, "Synced", "Sync", "copied");
		}
		assertThat(onlyEvent(regarding.getMetadata().getName()).getSeries().getCount()).isEqualTo(2);
		recorders.refreshSeries();
		assertThat(onlyEvent(regarding.getMetadata().getName()).getSeries().getCount()).isEqualTo(7);
	}

	@Test
	void aFullBufferDropsWithoutBlockingAndTheWriterCatchesUpLater() throws ApiException {
		V1ConfigMap regarding = configMap("buffered");
		HeldExecutor executor = new HeldExecutor();
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), executor, this.clock, "pod-1", 2,
				this.listener);
		for (String reason : List.of("One", "Two", "Three", "Four", "Five")) {
			recorders.forController("mirror").normal(regarding, reason, "Sync", "distinct events");
		}
		assertThat(this.listener.dropped(EventDrop.BUFFER_FULL)).isEqualTo(3);
		assertThat(events(regarding.getMetadata().getName())).isEmpty();
		executor.runAll();
		assertThat(events(regarding.getMetadata().getName())).extracting(EventsV1Event::getReason)
			.containsExactlyInAnyOrder("One", "Two");
		assertThat(this.listener.written).hasValue(2);
	}

	@Test
	void anEventTheFullBufferDroppedLeavesNoSeriesBehind() throws ApiException {
		V1ConfigMap regarding = configMap("dropped");
		HeldExecutor executor = new HeldExecutor();
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), executor, this.clock, "pod-1", 2,
				this.listener);
		EventRecorder recorder = recorders.forController("mirror");
		recorder.normal(regarding, "One", "Sync", "fills the buffer");
		recorder.normal(regarding, "Two", "Sync", "fills the buffer");
		// the buffer is full: a new event and the repeat that would start Two's series
		// are both dropped
		recorder.normal(regarding, "Three", "Sync", "dropped");
		recorder.normal(regarding, "Two", "Sync", "dropped");
		assertThat(this.listener.dropped(EventDrop.BUFFER_FULL)).isEqualTo(2);
		executor.runAll();
		recorder.normal(regarding, "Three", "Sync", "after the backlog");
		recorder.normal(regarding, "Two", "Sync", "after the backlog");
		executor.runAll();
		List<EventsV1Event> events = events(regarding.getMetadata().getName());
		// the dropped Three is not remembered, so its repeat is a new Event of its own
		assertThat(events).filteredOn((event) -> "Three".equals(event.getReason()))
			.singleElement()
			.satisfies((event) -> assertThat(event.getSeries()).isNull());
		// the dropped repeat of Two is not counted, so the next repeat starts the series
		assertThat(events).filteredOn((event) -> "Two".equals(event.getReason()))
			.singleElement()
			.satisfies((event) -> assertThat(event.getSeries()).isNotNull()
				.satisfies((series) -> assertThat(series.getCount()).isEqualTo(2)));
		// six recorded: four written or counted in a series, two dropped
		assertThat(this.listener.written).hasValue(4);
	}

	@Test
	void anEventTheServerRefusesIsCountedAsAWriteFailure() throws ApiException {
		// an event lives in its object's namespace, and the API server refuses one in a
		// namespace that does not exist
		V1ConfigMap regarding = new V1ConfigMap().metadata(new V1ObjectMeta().name("refused").namespace("no-such-ns"));
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), Runnable::run, this.clock, "pod-1",
				EventRecorders.DEFAULT_BUFFER_CAPACITY, this.listener);
		recorders.forController("mirror").warning(regarding, "SyncFailed", "Sync", "n");
		recorders.forController("mirror").normal(new V1ConfigMap(), "Synced", "Sync", "no name");
		assertThat(this.listener.dropped(EventDrop.INVALID)).isEqualTo(1);
		assertThat(this.listener.dropped(EventDrop.WRITE_FAILED)).isEqualTo(1);
		assertThat(this.listener.written).hasValue(0);
	}

	private V1ConfigMap configMap(String name) throws ApiException {
		return new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace(this.namespace.name())))
			.execute();
	}

	private EventsV1Event onlyEvent(String regarding) throws ApiException {
		List<EventsV1Event> events = events(regarding);
		assertThat(events).hasSize(1);
		return events.get(0);
	}

	private List<EventsV1Event> events(String regarding) throws ApiException {
		return new EventsV1Api(this.client).listNamespacedEvent(this.namespace.name())
			.execute()
			.getItems()
			.stream()
			.filter((event) -> "mirror".equals(event.getReportingController()))
			// each test regards its own ConfigMap; the other tests' events share
			// the namespace
			.filter((event) -> regarding.equals(event.getRegarding().getName()))
			.toList();
	}

	/**
	 * Holds tasks until the test runs them.
	 */
	static final class HeldExecutor implements Executor {

		private final Queue<Runnable> tasks = new ArrayDeque<>();

		@Override
		public synchronized void execute(Runnable task) {
			this.tasks.add(task);
		}

		void runAll() {
			Runnable task;
			while ((task = poll()) != null) {
				task.run();
			}
		}

		private synchronized Runnable poll() {
			return this.tasks.poll();
		}

	}

}
