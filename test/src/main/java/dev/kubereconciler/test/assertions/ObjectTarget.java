package dev.kubereconciler.test.assertions;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * One object that assertions read, by its resource and key, as JSON, so that any type can
 * be read: built-in models, custom resources and dynamic objects alike.
 *
 * @param client the client to read with
 * @param group the API group, empty for the core group
 * @param version the API version
 * @param plural the plural resource name
 * @param kind the kind, or {@code null} if unknown; Events are then matched by API
 * version and key only
 * @param namespace the namespace, empty for a cluster-scoped object
 * @param name the name
 */
record ObjectTarget(ApiClient client, String group, String version, String plural, @Nullable String kind,
		String namespace, String name) {

	ObjectTarget {
		Objects.requireNonNull(client, "client must not be null");
		Objects.requireNonNull(namespace, "namespace must not be null, but may be empty");
		Objects.requireNonNull(name, "name must not be null");
	}

	ObjectState read() {
		DynamicKubernetesApi api = new DynamicKubernetesApi(this.group, this.version, this.plural, this.client);
		KubernetesApiResponse<DynamicKubernetesObject> response = this.namespace.isEmpty() ? api.get(this.name)
				: api.get(this.namespace, this.name);
		if (response.isSuccess()) {
			return ObjectState.found(response.getObject().getRaw());
		}
		V1Status status = response.getStatus();
		// a resource that is not served answers 404 too, but without the NotFound
		// status: taking that for a deleted object would pass isGone() for a typo
		if (response.getHttpStatusCode() == 404 && status != null && "NotFound".equals(status.getReason())
				&& status.getDetails() != null && this.name.equals(status.getDetails().getName())) {
			return ObjectState.gone();
		}
		return ObjectState.failed(response.getHttpStatusCode() + " "
				+ ((status != null && status.getMessage() != null) ? status.getMessage() : "(no message)") + " (is "
				+ this.plural + " served in " + apiVersion() + "?)");
	}

	/**
	 * Return the events.k8s.io/v1 Events regarding this object, oldest first.
	 * @param kindSeen the object's kind as last read, used when the target has none
	 * @return the Events
	 * @throws ApiException if they cannot be listed
	 */
	List<EventsV1Event> events(@Nullable String kindSeen) throws ApiException {
		// Events of a cluster-scoped object are written to the default namespace, as
		// client-go's recorder does
		String eventNamespace = this.namespace.isEmpty() ? "default" : this.namespace;
		String kind = (this.kind != null) ? this.kind : kindSeen;
		return new EventsV1Api(this.client).listNamespacedEvent(eventNamespace)
			.execute()
			.getItems()
			.stream()
			.filter((event) -> regardsThis(event.getRegarding(), kind))
			.sorted(Comparator.comparing(ObjectTarget::time, Comparator.nullsFirst(Comparator.naturalOrder())))
			.toList();
	}

	private boolean regardsThis(@Nullable V1ObjectReference regarding, @Nullable String kind) {
		if (regarding == null || !this.name.equals(regarding.getName())
				|| !this.namespace.equals(Objects.requireNonNullElse(regarding.getNamespace(), ""))) {
			return false;
		}
		if (kind != null) {
			return kind.equals(regarding.getKind());
		}
		return apiVersion().equals(regarding.getApiVersion());
	}

	// the first time of each Event, not its series' last: the order in which distinct
	// Events first happened is what a reader follows
	private static @Nullable Instant time(EventsV1Event event) {
		if (event.getEventTime() != null) {
			return event.getEventTime().toInstant();
		}
		return (event.getMetadata() != null && event.getMetadata().getCreationTimestamp() != null)
				? event.getMetadata().getCreationTimestamp().toInstant() : null;
	}

	String apiVersion() {
		return this.group.isEmpty() ? this.version : this.group + "/" + this.version;
	}

	@Override
	public String toString() {
		String type = (this.kind != null) ? this.kind : this.plural;
		return type + " " + (this.namespace.isEmpty() ? this.name : this.namespace + "/" + this.name);
	}

}
