package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The assertions on objects against a real controller and the real test API server: each
 * passes when the object gets there, and fails with a message that says why and shows the
 * object's last state.
 */
@KubernetesTest
class ObjectAssertTests {

	private static final Duration SHORT = Duration.ofMillis(300);

	ApiClient client;

	TestNamespace namespace;

	private GenericKubernetesApi<Widget, WidgetList> widgets;

	private ControllerManager manager;

	@BeforeEach
	void startController() throws ApiException {
		Widget.install(this.client);
		this.widgets = Widget.api(this.client);
		this.manager = WidgetController.start(this.client, this.namespace.name(), new ReconcileRecorder());
	}

	@AfterEach
	void stopController() {
		this.manager.stop();
	}

	@Test
	void conditionIsAwaitedAndItsAbsenceShowsTheConditionsAndTheLastState() throws ApiException {
		create("ready", 2, Map.of());
		create("empty", 0, Map.of());
		assertThat(this.client, Widget.class, this.namespace.name(), "ready").eventually()
			.hasCondition("Ready", "True");
		assertThat(this.client, Widget.class, this.namespace.name(), "empty").eventually()
			.hasCondition("Ready", "False");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.client, Widget.class, this.namespace.name(), "empty").eventually(SHORT)
				.hasCondition("Ready", "True"))
			.withMessageStartingWith("After 300 ms: Expected Widget " + this.namespace.name()
					+ "/empty to have condition Ready=True, but its conditions are Ready=False (NoReplicas: "
					+ "spec.replicas is 0).")
			.withMessageContaining("Its last state:\n  apiVersion: assertions.kubereconciler.dev/v1\n  kind: Widget\n")
			.withMessageContaining("\n    replicas: 0\n")
			.withMessageNotContaining("managedFields");
	}

	@Test
	void withoutEventuallyAnAssertionChecksOnce() {
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.client, Widget.class, this.namespace.name(), "missing")
				.hasCondition("Ready", "True"))
			.withMessage("Expected Widget " + this.namespace.name()
					+ "/missing to have condition Ready=True\nThe object does not exist.");
	}

	@Test
	void fieldIsAwaitedByPathAndAWrongValueShowsTheValueFound() throws ApiException {
		Widget widget = create("sized", 3, Map.of("app.kubernetes.io/name", "shop"));
		assertThat(this.client, widget).eventually()
			.hasField("status.replicas", 3)
			.hasField("status.conditions[0].type", "Ready")
			.hasField("metadata.labels.app\\.kubernetes\\.io/name", "shop");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.client, widget).eventually(SHORT).hasField("status.replicas", 4))
			.withMessageStartingWith("After 300 ms: Expected Widget " + this.namespace.name()
					+ "/sized to have status.replicas = 4, but it is 3.\nIts last state:\n")
			.withMessageContaining("name: sized");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.client, widget).hasField("status.ready", true))
			.withMessageStartingWith("Expected Widget " + this.namespace.name()
					+ "/sized to have status.ready = true, but it has no status.ready.\nIts last state:\n");
	}

	@Test
	void dynamicObjectsAreReadByApiVersionAndPlural() throws ApiException {
		create("dynamic", 5, Map.of());
		assertThat(this.client, Widget.GROUP + "/v1", "widgets", this.namespace.name(), "dynamic").eventually()
			.hasField("status.replicas", "5")
			.hasCondition("Ready", "True");
	}

	@Test
	void deletionHeldByAFinalizerNamesTheFinalizerAndGoesOnceItIsReleased() throws ApiException {
		create("held", 1, Map.of("hold", "true"));
		ObjectAssert held = assertThat(this.client, Widget.class, this.namespace.name(), "held");
		held.eventually().hasField("metadata.finalizers[0]", WidgetController.FINALIZER);
		assertThatExceptionOfType(AssertionFailedError.class).isThrownBy(held::isGone)
			.withMessageStartingWith("Expected Widget " + this.namespace.name()
					+ "/held to be gone, but it exists and its deletion was never requested (finalizers [\""
					+ WidgetController.FINALIZER + "\"]).");
		this.widgets.delete(this.namespace.name(), "held").throwsApiException();
		assertThatExceptionOfType(AssertionFailedError.class).isThrownBy(() -> held.eventually(SHORT).isGone())
			.withMessageMatching("(?s)After 300 ms: Expected Widget " + this.namespace.name()
					+ "/held to be gone, but its deletion \\(requested at \\S+Z\\) waits for finalizers \\[\""
					+ WidgetController.FINALIZER + "\"\\]\\.\nIts last state:\n.*deletionTimestamp: .*");
		Widget current = this.widgets.get(this.namespace.name(), "held").throwsApiException().getObject();
		current.getMetadata().getLabels().remove("hold");
		this.widgets.update(current).throwsApiException();
		held.eventually().isGone();
	}

	@Test
	void aResourceThatIsNotServedIsNotTakenForAGoneObject() {
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(
					() -> assertThat(this.client, Widget.GROUP + "/v1", "gizmos", this.namespace.name(), "g").isGone())
			.withMessageStartingWith(
					"Expected gizmos " + this.namespace.name() + "/g to be gone.\nThe last read failed: 404")
			.withMessageEndingWith("(is gizmos served in assertions.kubereconciler.dev/v1?)");
	}

	@Test
	void eventsAreReadByReasonAndControllerAndAMissingOneListsTheEventsSeen() throws ApiException {
		create("noted", 2, Map.of());
		ObjectAssert noted = assertThat(this.client, Widget.class, this.namespace.name(), "noted");
		List<EventsV1Event> sized = noted.eventually().hasEvent(WidgetController.NAME, "Sized");
		assertThat(sized).singleElement().satisfies((event) -> assertThat(event.getNote()).isEqualTo("2 replicas"));
		assertThat(noted.hasEvent("Sized")).hasSize(1);
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> noted.eventually(SHORT).hasEvent("other-controller", "Sized"))
			.withMessageStartingWith(
					"After 300 ms: Expected an Event with reason Sized from other-controller regarding " + "Widget "
							+ this.namespace.name() + "/noted, but its Events are:\n  Normal Sized from widgets: "
							+ "2 replicas\nIts last state:\n");
	}

	private Widget create(String name, int replicas, Map<String, String> labels) throws ApiException {
		return this.widgets.create(Widget.named(this.namespace.name(), name, replicas, new HashMap<>(labels)))
			.throwsApiException()
			.getObject();
	}

}
