package dev.kubereconciler.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.events.EventRecordersIntegrationTests.HeldExecutor;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link EventRecorders#start} finishes and refreshes series on their own
 * periods, apart from the writer, as client-go's two {@code wait.Until} loops do. The
 * writer's executor holds its tasks until the test runs them: a writer that never gets to
 * run is the worst backlog there is.
 */
@KubernetesTest
class EventSeriesLoopsIntegrationTests {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	ApiClient client;

	TestNamespace namespace;

	private final ManualClock ticker = new ManualClock();

	private final Clock clock = this.ticker.wallClock(START);

	private final HeldExecutor writer = new HeldExecutor();

	@Test
	void finisherAndRefresherRunOnTheirPeriodsWhileTheWriterIsBacklogged() throws ApiException {
		V1ConfigMap ended = configMap("ended");
		V1ConfigMap open = configMap("open");
		EventRecorders recorders = new EventRecorders(new ApiEventSink(this.client), this.writer, this.clock, "pod-1",
				EventRecorders.DEFAULT_BUFFER_CAPACITY, EventRecorderListener.NONE);
		recorders.start(this.ticker);
		EventRecorder recorder = recorders.forController("mirror");
		for (int i = 0; i < 3; i++) {
			recorder.warning(ended, "SyncFailed", "Sync", "the target namespace is gone");
		}
		// the Event and the start of its series wait for the writer
		assertThat(recorders.buffered()).isEqualTo(2);
		// the finisher runs at 6 minutes, when the series is not older than 6 minutes
		// yet, and at 12, when it is: its final count joins the buffer
		this.ticker.advance(EventRecorders.FINISH_PERIOD);
		assertThat(recorders.buffered()).isEqualTo(2);
		this.ticker.advance(EventRecorders.FINISH_PERIOD);
		assertThat(recorders.buffered()).as("the finisher ran at 12 minutes and wrote the final count").isEqualTo(3);
		recorder.normal(open, "Synced", "Sync", "copied");
		recorder.normal(open, "Synced", "Sync", "copied");
		// a repeat every 3 minutes keeps the series open until the refresher runs at 30
		// minutes: 2 + 6 repeats from 15 to 30 minutes, 5 of them before the refresh
		for (int minute = 15; minute <= 30; minute += 3) {
			this.ticker.advance(Duration.ofMinutes(3));
			assertThat(recorders.buffered()).as("at %d minutes", minute).isEqualTo((minute < 30) ? 5 : 6);
			recorder.normal(open, "Synced", "Sync", "copied");
		}
		this.writer.runAll();
		assertThat(onlyEvent("ended").getSeries().getCount()).isEqualTo(3);
		assertThat(onlyEvent("open").getSeries().getCount()).isEqualTo(7);
		recorders.stop();
		assertThat(this.ticker.pending()).isZero();
	}

	private V1ConfigMap configMap(String name) throws ApiException {
		return new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).namespace(this.namespace.name())))
			.execute();
	}

	private EventsV1Event onlyEvent(String regarding) throws ApiException {
		List<EventsV1Event> events = new EventsV1Api(this.client).listNamespacedEvent(this.namespace.name())
			.execute()
			.getItems()
			.stream()
			.filter((event) -> regarding.equals(event.getRegarding().getName()))
			.toList();
		assertThat(events).hasSize(1);
		return events.get(0);
	}

}
