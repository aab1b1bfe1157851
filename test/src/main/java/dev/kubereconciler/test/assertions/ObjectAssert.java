package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on one Kubernetes object, read from the API server: checked once, or awaited
 * after {@link #eventually()}. A failure shows the object's last state.
 */
public final class ObjectAssert {

	private final ObjectTarget target;

	private final @Nullable Duration timeout;

	ObjectAssert(ObjectTarget target, @Nullable Duration timeout) {
		this.target = target;
		this.timeout = timeout;
	}

	/**
	 * Wait for the assertions that follow, up to
	 * {@link KubernetesAssertions#DEFAULT_TIMEOUT 30 seconds}.
	 * @return assertions that wait
	 */
	public ObjectAssert eventually() {
		return eventually(KubernetesAssertions.DEFAULT_TIMEOUT);
	}

	/**
	 * Wait for the assertions that follow, up to the given time.
	 * @param timeout how long each assertion waits
	 * @return assertions that wait
	 */
	public ObjectAssert eventually(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout must not be null");
		return new ObjectAssert(this.target, timeout);
	}

	/**
	 * Assert that the object has a condition in {@code status.conditions} (as
	 * apimachinery's {@code metav1.Condition}) with the given type and status.
	 * @param type the condition's type, such as {@code Ready}
	 * @param status its status: {@code True}, {@code False} or {@code Unknown}
	 * @return this
	 */
	public ObjectAssert hasCondition(String type, String status) {
		Check.until(this.timeout, () -> {
			ObjectState state = this.target.read();
			JsonObject object = state.object();
			String expectation = "Expected " + this.target + " to have condition " + type + "=" + status;
			if (object == null) {
				return Check.failed(expectation + state.describe());
			}
			JsonElement conditions = FieldPath.parse("status.conditions").find(object);
			if (!(conditions instanceof JsonArray list) || list.isEmpty()) {
				return Check.failed(expectation + ", but it has no status.conditions." + state.describe());
			}
			List<String> seen = new ArrayList<>();
			for (JsonElement condition : list) {
				if (condition instanceof JsonObject json && type.equals(text(json, "type"))) {
					if (status.equals(text(json, "status"))) {
						return Check.passed(json);
					}
				}
				if (condition instanceof JsonObject json) {
					seen.add(describeCondition(json));
				}
			}
			return Check
				.failed(expectation + ", but its conditions are " + String.join(", ", seen) + "." + state.describe());
		});
		return this;
	}

	/**
	 * Assert that a field of the object has a value. The value is compared by its text,
	 * so {@code 3} and {@code "3"} both match the JSON number {@code 3}.
	 * @param path the field's path, as kubectl's JSONPath without the braces and the
	 * leading dot: {@code status.replicas}, {@code spec.containers[0].image}, and
	 * {@code metadata.labels.app\.kubernetes\.io/name} for a key with dots in it
	 * @param expected the value: a string, number or boolean
	 * @return this
	 */
	public ObjectAssert hasField(String path, Object expected) {
		FieldPath field = FieldPath.parse(path);
		if (!(expected instanceof String || expected instanceof Number || expected instanceof Boolean)) {
			throw new IllegalArgumentException(
					"Expected value of " + path + " must be a string, number or boolean, not "
							+ ((expected != null) ? expected.getClass().getName() : "null"));
		}
		String text = expected.toString();
		Check.until(this.timeout, () -> {
			ObjectState state = this.target.read();
			JsonObject object = state.object();
			String expectation = "Expected " + this.target + " to have " + field + " = " + text;
			if (object == null) {
				return Check.failed(expectation + state.describe());
			}
			JsonElement actual = field.find(object);
			if (actual instanceof JsonPrimitive primitive && primitive.getAsString().equals(text)) {
				return Check.passed(actual);
			}
			String found = (actual != null) ? "it is " + actual : "it has no " + field;
			return Check.failed(expectation + ", but " + found + "." + state.describe());
		});
		return this;
	}

	/**
	 * Assert that the object does not exist: it was never created, or it was deleted and
	 * its finalizers are all removed. A failure names the finalizers still on it and its
	 * {@code deletionTimestamp}.
	 */
	public void isGone() {
		Check.until(this.timeout, () -> {
			ObjectState state = this.target.read();
			JsonObject object = state.object();
			if (state.isGone()) {
				return Check.passed(Boolean.TRUE);
			}
			String expectation = "Expected " + this.target + " to be gone";
			if (object == null) {
				return Check.failed(expectation + "." + state.describe());
			}
			JsonElement deletion = FieldPath.parse("metadata.deletionTimestamp").find(object);
			JsonElement finalizers = FieldPath.parse("metadata.finalizers").find(object);
			String why = (deletion != null)
					? ", but its deletion (requested at " + deletion.getAsString() + ") waits for finalizers "
							+ ((finalizers != null) ? finalizers : "[]")
					: ", but it exists and its deletion was never requested (finalizers "
							+ ((finalizers != null) ? finalizers : "[]") + ")";
			return Check.failed(expectation + why + "." + state.describe());
		});
	}

	/**
	 * Assert that an events.k8s.io/v1 Event regarding the object has the given reason,
	 * and read the Events that match.
	 * @param reason the Event's reason, such as {@code Created}
	 * @return the matching Events, oldest first
	 */
	public List<EventsV1Event> hasEvent(String reason) {
		return events(null, reason);
	}

	/**
	 * Assert that an events.k8s.io/v1 Event regarding the object was reported by the
	 * given controller with the given reason, and read the Events that match.
	 * @param reportingController the Event's {@code reportingController}: the
	 * controller's name for Events of kube-reconciler's recorders
	 * @param reason the Event's reason, such as {@code Created}
	 * @return the matching Events, oldest first
	 */
	public List<EventsV1Event> hasEvent(String reportingController, String reason) {
		Objects.requireNonNull(reportingController, "reportingController must not be null");
		return events(reportingController, reason);
	}

	private List<EventsV1Event> events(@Nullable String reportingController, String reason) {
		Objects.requireNonNull(reason, "reason must not be null");
		String expectation = "Expected an Event with reason " + reason
				+ ((reportingController != null) ? " from " + reportingController : "") + " regarding " + this.target;
		return Check.until(this.timeout, () -> {
			ObjectState state = this.target.read();
			List<EventsV1Event> events;
			try {
				events = this.target.events(kind(state));
			}
			catch (ApiException ex) {
				return Check.failed(expectation + ", but the Events could not be listed: " + ex.getCode() + " "
						+ ex.getResponseBody());
			}
			List<EventsV1Event> matching = events.stream()
				.filter((event) -> reason.equals(event.getReason())
						&& (reportingController == null || reportingController.equals(event.getReportingController())))
				.toList();
			if (!matching.isEmpty()) {
				return Check.passed(matching);
			}
			String seen = events.isEmpty() ? "it has none" : "its Events are:\n"
					+ String.join("\n", events.stream().map(ObjectAssert::describeEvent).toList());
			return Check.failed(expectation + ", but " + seen + state.describe());
		});
	}

	private static @Nullable String kind(ObjectState state) {
		JsonObject object = state.object();
		return (object != null) ? text(object, "kind") : null;
	}

	private static String describeEvent(EventsV1Event event) {
		return "  " + event.getType() + " " + event.getReason() + " from " + event.getReportingController() + ": "
				+ event.getNote();
	}

	private static String describeCondition(JsonObject condition) {
		String reason = text(condition, "reason");
		String message = text(condition, "message");
		return text(condition, "type") + "=" + text(condition, "status")
				+ ((reason != null || message != null) ? " (" + reason + ": " + message + ")" : "");
	}

	private static @Nullable String text(JsonObject object, String key) {
		JsonElement value = object.get(key);
		return (value instanceof JsonPrimitive primitive) ? primitive.getAsString() : null;
	}

}
