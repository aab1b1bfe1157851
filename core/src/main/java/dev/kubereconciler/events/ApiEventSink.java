package dev.kubereconciler.events;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.util.PatchUtils;

/**
 * Writes {@code events.k8s.io/v1} Events with client-java: a create for a new event, and
 * a JSON merge patch of {@code series} for a repeat, as client-go patches only the
 * series.
 */
public final class ApiEventSink implements EventDestination {

	// metav1.MicroTime's wire format, RFC3339Micro: exactly six fractional digits
	private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

	private final ApiClient client;

	private final EventsV1Api api;

	/**
	 * Create a sink.
	 * @param client the client
	 */
	public ApiEventSink(ApiClient client) {
		this.client = client;
		this.api = new EventsV1Api(client);
	}

	@Override
	public void create(EventsV1Event event) throws ApiException {
		this.api.createNamespacedEvent(event.getMetadata().getNamespace(), event).execute();
	}

	@Override
	public void patchSeries(EventsV1Event event) throws ApiException {
		EventsV1EventSeries series = event.getSeries();
		String patch = "{\"series\":{\"count\":" + series.getCount() + ",\"lastObservedTime\":\""
				+ MICRO_TIME.format(series.getLastObservedTime().withOffsetSameInstant(ZoneOffset.UTC)) + "\"}}";
		PatchUtils.patch(EventsV1Event.class,
				() -> this.api
					.patchNamespacedEvent(event.getMetadata().getName(), event.getMetadata().getNamespace(),
							new V1Patch(patch))
					.buildCall(null),
				V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
	}

}
