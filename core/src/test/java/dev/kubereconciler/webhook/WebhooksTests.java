package dev.kubereconciler.webhook;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import jakarta.json.Json;
import jakarta.json.JsonStructure;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.webhook.Gizmos.GizmoV1;
import dev.kubereconciler.webhook.Gizmos.GizmoV1alpha1;
import dev.kubereconciler.webhook.admission.AdmissionOperation;
import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.admission.AdmissionWebhook;
import dev.kubereconciler.webhook.conversion.VersionConverter;
import dev.kubereconciler.webhook.server.WebhookEndpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The review handling of {@link Webhooks}, on reviews as the API server writes them; the
 * calls from a real API server are in the autoconfigure module's integration tests.
 */
class WebhooksTests {

	private static final String CONFIG_MAP = """
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"team",
			"creationTimestamp":"2026-11-26T06:00:00Z"},"data":{"mode":"fast"}}""";

	@Test
	void pathsAndNamesFollowControllerRuntime() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {
		}).defaulter(GizmoV1.class, (gizmo, request) -> {
		}).build();
		assertThat(webhooks.endpoints()).containsOnlyKeys("/validate--v1-configmap",
				"/mutate-webhook-test-kubereconciler-dev-v1-gizmo");
		assertThat(webhooks.admissionWebhooks()).extracting(AdmissionWebhook::name)
			.containsExactly("vconfigmap-v1.core.k8s.io", "mgizmo-v1.webhook.test.kubereconciler.dev");
	}

	@Test
	void createIsAllowedOrDeniedWithTheValidatorsMessageAndWarnings() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {

			@Override
			public AdmissionResult validateCreate(V1ConfigMap object, AdmissionRequest request) {
				if ("slow".equals(object.getData().get("mode"))) {
					return AdmissionResult.denied("mode 'slow' is retired: use 'fast'");
				}
				return AdmissionResult.allowed().withWarnings("mode is set by " + request.userName());
			}

		}).build();
		JsonObject allowed = answer(webhooks, "/validate--v1-configmap", review("CREATE", CONFIG_MAP, null, false));
		assertThat(allowed.get("uid").getAsString()).isEqualTo("7b3c");
		assertThat(allowed.get("allowed").getAsBoolean()).isTrue();
		assertThat(allowed.getAsJsonArray("warnings").get(0).getAsString()).isEqualTo("mode is set by alice");
		JsonObject denied = answer(webhooks, "/validate--v1-configmap",
				review("CREATE", CONFIG_MAP.replace("fast", "slow"), null, false));
		assertThat(denied.get("allowed").getAsBoolean()).isFalse();
		assertThat(denied.getAsJsonObject("status").get("code").getAsInt()).isEqualTo(403);
		assertThat(denied.getAsJsonObject("status").get("reason").getAsString()).isEqualTo("Forbidden");
		assertThat(denied.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("mode 'slow' is retired: use 'fast'");
	}

	@Test
	void updateSeesTheOldAndTheNewObject() {
		AtomicReference<String> seen = new AtomicReference<>();
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {

			@Override
			public AdmissionResult validateUpdate(V1ConfigMap oldObject, V1ConfigMap newObject,
					AdmissionRequest request) {
				seen.set(oldObject.getData().get("mode") + " -> " + newObject.getData().get("mode"));
				return AdmissionResult.denied("mode is immutable");
			}

		}).build();
		JsonObject answer = answer(webhooks, "/validate--v1-configmap",
				review("UPDATE", CONFIG_MAP.replace("fast", "slow"), CONFIG_MAP, true));
		assertThat(seen).hasValue("fast -> slow");
		assertThat(answer.get("allowed").getAsBoolean()).isFalse();
	}

	@Test
	void deletesAreSentOnlyToAValidatorThatJudgesThem() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {

			@Override
			public AdmissionResult validateDelete(V1ConfigMap oldObject, AdmissionRequest request) {
				return AdmissionResult.denied("settings " + oldObject.getMetadata().getName() + " are kept");
			}

		}).validator(GizmoV1.class, new AdmissionValidator<GizmoV1>() {
		}).build();
		assertThat(webhooks.admissionWebhooks()).extracting(AdmissionWebhook::operations)
			.containsExactly(Set.of(AdmissionOperation.CREATE, AdmissionOperation.UPDATE, AdmissionOperation.DELETE),
					Set.of(AdmissionOperation.CREATE, AdmissionOperation.UPDATE));
		JsonObject answer = answer(webhooks, "/validate--v1-configmap", review("DELETE", null, CONFIG_MAP, false));
		assertThat(answer.getAsJsonObject("status").get("message").getAsString())
			.isEqualTo("settings settings are kept");
	}

	@Test
	void aValidatorThatThrowsDeniesWithItsMessageAndNoStackTrace() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {

			@Override
			public AdmissionResult validateCreate(V1ConfigMap object, AdmissionRequest request) {
				throw new IllegalStateException("the quota service is down");
			}

		}).build();
		JsonObject answer = answer(webhooks, "/validate--v1-configmap", review("CREATE", CONFIG_MAP, null, false));
		assertThat(answer.get("allowed").getAsBoolean()).isFalse();
		JsonObject status = answer.getAsJsonObject("status");
		assertThat(status.get("code").getAsInt()).isEqualTo(500);
		assertThat(status.get("message").getAsString())
			.endsWith("failed: IllegalStateException: the quota service is down")
			.doesNotContain("\tat ");
	}

	@Test
	void aValidatorThatReturnsNullDeniesNamingTheFix() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {

			@Override
			@SuppressWarnings("NullAway")
			public AdmissionResult validateCreate(V1ConfigMap object, AdmissionRequest request) {
				return null;
			}

		}).build();
		JsonObject answer = answer(webhooks, "/validate--v1-configmap", review("CREATE", CONFIG_MAP, null, false));
		assertThat(answer.get("allowed").getAsBoolean()).isFalse();
		assertThat(answer.getAsJsonObject("status").get("message").getAsString())
			.contains("returned null; return AdmissionResult.allowed()");
	}

	@Test
	void defaultsArePatchedWithoutTouchingWhatTheModelDoesNotKnow() {
		AtomicReference<AdmissionRequest> request = new AtomicReference<>();
		Webhooks webhooks = Webhooks.builder().defaulter(V1ConfigMap.class, (configMap, admission) -> {
			request.set(admission);
			configMap.putDataItem("replicas", "1");
			configMap.getMetadata().putLabelsItem("defaulted", "true");
		}).build();
		JsonObject answer = answer(webhooks, "/mutate--v1-configmap", review("CREATE", CONFIG_MAP, null, true));
		assertThat(answer.get("allowed").getAsBoolean()).isTrue();
		assertThat(answer.get("patchType").getAsString()).isEqualTo("JSONPatch");
		String patch = new String(Base64.getDecoder().decode(answer.get("patch").getAsString()),
				StandardCharsets.UTF_8);
		JsonStructure patched = Json.createPatch(read(patch).asJsonArray()).apply(read(CONFIG_MAP));
		JsonObject result = JsonParser.parseString(patched.toString()).getAsJsonObject();
		JsonObject expected = JsonParser.parseString(CONFIG_MAP).getAsJsonObject();
		expected.getAsJsonObject("data").addProperty("replicas", "1");
		JsonObject labels = new JsonObject();
		labels.addProperty("defaulted", "true");
		expected.getAsJsonObject("metadata").add("labels", labels);
		assertThat(result).isEqualTo(expected);
		assertThat(patch).doesNotContain("creationTimestamp");
		assertThat(request.get().dryRun()).isTrue();
	}

	@Test
	void fieldsTheModelDoesNotKnowAreNotPatchedAway() {
		Webhooks webhooks = Webhooks.builder().defaulter(GizmoV1.class, (gizmo, admission) -> {
			GizmoV1.Spec spec = gizmo.getSpec();
			gizmo.setSpec(new GizmoV1.Spec(spec.dimensions(), spec.color(), "glossy"));
		}).build();
		String gizmo = """
				{"apiVersion":"webhook.test.kubereconciler.dev/v1","kind":"Gizmo","metadata":{"name":"g"},
				"spec":{"dimensions":{"size":2,"depth":7},"color":"red","legacy":"kept"}}""";
		JsonObject answer = answer(webhooks, "/mutate-webhook-test-kubereconciler-dev-v1-gizmo",
				review("CREATE", gizmo, null, false));
		String patch = new String(Base64.getDecoder().decode(answer.get("patch").getAsString()),
				StandardCharsets.UTF_8);
		assertThat(patch).isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/finish\",\"value\":\"glossy\"}]");
	}

	@Test
	void aDefaulterThatChangesNothingSendsNoPatch() {
		Webhooks webhooks = Webhooks.builder().defaulter(V1ConfigMap.class, (configMap, admission) -> {
			configMap.putDataItem("mode", "fast");
		}).build();
		JsonObject answer = answer(webhooks, "/mutate--v1-configmap", review("CREATE", CONFIG_MAP, null, false));
		assertThat(answer.get("allowed").getAsBoolean()).isTrue();
		assertThat(answer.has("patch")).isFalse();
	}

	@Test
	void conversionGoesThroughTheHubAndKeepsMetadata() {
		Webhooks webhooks = Webhooks.builder()
			.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter())
			.build();
		assertThat(webhooks.convertedResources()).singleElement()
			.satisfies(
					(resource) -> assertThat(resource.crdName()).isEqualTo("gizmos.webhook.test.kubereconciler.dev"));
		String alpha = """
				{"apiVersion":"webhook.test.kubereconciler.dev/v1alpha1","kind":"Gizmo",
				"metadata":{"name":"g","namespace":"team","uid":"u-1","resourceVersion":"42",
				"creationTimestamp":"2026-11-26T06:00:00Z","annotations":{"%s":"matte","other":"x"}},
				"spec":{"size":3,"color":"red"}}""".formatted(Gizmos.FINISH_ANNOTATION);
		JsonObject toV1 = convert(webhooks, "webhook.test.kubereconciler.dev/v1", alpha);
		assertThat(toV1.get("apiVersion").getAsString()).isEqualTo("webhook.test.kubereconciler.dev/v1");
		assertThat(toV1.getAsJsonObject("spec").toString())
			.isEqualTo("{\"dimensions\":{\"size\":3},\"color\":\"red\",\"finish\":\"matte\"}");
		assertThat(toV1.getAsJsonObject("metadata").get("creationTimestamp").getAsString())
			.isEqualTo("2026-11-26T06:00:00Z");
		assertThat(toV1.getAsJsonObject("metadata").getAsJsonObject("annotations").keySet()).containsOnly("other");
		JsonObject back = convert(webhooks, "webhook.test.kubereconciler.dev/v1alpha1", toV1.toString());
		assertThat(back).isEqualTo(JsonParser.parseString(alpha).getAsJsonObject());
	}

	@Test
	void aFailedConversionAnswersFailureWithTheMessage() {
		Webhooks webhooks = Webhooks.builder()
			.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter())
			.build();
		String review = """
				{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c-1",
				"desiredAPIVersion":"webhook.test.kubereconciler.dev/v2","objects":[{"apiVersion":
				"webhook.test.kubereconciler.dev/v1alpha1","kind":"Gizmo","metadata":{"name":"g"}}]}}""";
		JsonObject response = JsonParser
			.parseString(new String(webhooks.endpoints().get(Webhooks.CONVERSION_PATH).handle(bytes(review)),
					StandardCharsets.UTF_8))
			.getAsJsonObject()
			.getAsJsonObject("response");
		assertThat(response.get("uid").getAsString()).isEqualTo("c-1");
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Failure");
		assertThat(response.getAsJsonObject("result").get("message").getAsString())
			.isEqualTo("No converter between Gizmo v2 and the hub v1");
	}

	@Test
	void aSecondValidatorForATypeIsRefused() {
		Webhooks.Builder builder = Webhooks.builder()
			.validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {
			});
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {
			}))
			.withMessageContaining("v1/ConfigMap has two validators")
			.withMessageContaining("merge them into one");
	}

	@Test
	void aConverterOfABuiltInTypeIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Webhooks.builder().converter(GizmoV1.class, V1ConfigMap.class, new VersionConverter<>() {

				@Override
				public GizmoV1 toHub(V1ConfigMap spoke) {
					return new GizmoV1();
				}

				@Override
				public V1ConfigMap fromHub(GizmoV1 hub) {
					return new V1ConfigMap();
				}

			}))
			.withMessageContaining("which is no custom resource");
	}

	@Test
	void aConverterBetweenAVersionAndItselfIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Webhooks.builder().converter(GizmoV1.class, GizmoV1.class, new VersionConverter<>() {

				@Override
				public GizmoV1 toHub(GizmoV1 spoke) {
					return spoke;
				}

				@Override
				public GizmoV1 fromHub(GizmoV1 hub) {
					return hub;
				}

			}))
			.withMessageContaining("which are not two versions of one custom resource");
	}

	@Test
	void aResourceHasOneHubSoTheHubIsNeverASpoke() {
		Webhooks.Builder builder = Webhooks.builder()
			.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.converter(GizmoV1alpha1.class, GizmoV1.class, new VersionConverter<>() {

				@Override
				public GizmoV1alpha1 toHub(GizmoV1 spoke) {
					return new Gizmos.Converter().fromHub(spoke);
				}

				@Override
				public GizmoV1 fromHub(GizmoV1alpha1 hub) {
					return new Gizmos.Converter().toHub(hub);
				}

			}))
			.withMessageContaining("whose hub is already webhook.test.kubereconciler.dev/v1/Gizmo");
	}

	@Test
	void aSpokeHasOneConverter() {
		Webhooks.Builder builder = Webhooks.builder()
			.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> builder.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter()))
			.withMessageContaining("v1alpha1/Gizmo already has a converter to the hub");
	}

	@Test
	void aBodyThatIsNoReviewIsABadRequest() {
		Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, new AdmissionValidator<V1ConfigMap>() {
		}).build();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> webhooks.endpoints().get("/validate--v1-configmap").handle(bytes("{\"kind\":\"Pod\"}")))
			.withMessageContaining("Expected an admission.k8s.io AdmissionReview");
	}

	@Test
	void aBodyThatIsNoConversionReviewIsABadRequest() {
		WebhookEndpoint endpoint = Webhooks.builder()
			.converter(GizmoV1.class, GizmoV1alpha1.class, new Gizmos.Converter())
			.build()
			.endpoints()
			.get(Webhooks.CONVERSION_PATH);
		for (String body : new String[] { "{\"kind\":\"AdmissionReview\"}", "{\"apiVersion\":\"v1\"}", "[]" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> endpoint.handle(bytes(body)))
				.withMessage("Expected an apiextensions.k8s.io ConversionReview");
		}
		assertThatIllegalArgumentException().isThrownBy(() -> endpoint.handle(bytes("{\"kind\":")))
			.withMessageStartingWith("The body is not JSON: ");
	}

	private static JsonObject convert(Webhooks webhooks, String desired, String object) {
		String review = """
				{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"c-1",
				"desiredAPIVersion":"%s","objects":[%s]}}""".formatted(desired, object);
		JsonObject response = JsonParser
			.parseString(new String(webhooks.endpoints().get(Webhooks.CONVERSION_PATH).handle(bytes(review)),
					StandardCharsets.UTF_8))
			.getAsJsonObject()
			.getAsJsonObject("response");
		assertThat(response.getAsJsonObject("result").get("status").getAsString()).isEqualTo("Success");
		return response.getAsJsonArray("convertedObjects").get(0).getAsJsonObject();
	}

	private static String review(String operation, String object, String oldObject, boolean dryRun) {
		return """
				{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"7b3c",
				"kind":{"group":"","version":"v1","kind":"ConfigMap"},
				"resource":{"group":"","version":"v1","resource":"configmaps"},
				"namespace":"team","name":"settings","operation":"%s",
				"userInfo":{"username":"alice","groups":["devs"]},"object":%s,"oldObject":%s,"dryRun":%s}}"""
			.formatted(operation, object, oldObject, dryRun);
	}

	private static JsonObject answer(Webhooks webhooks, String path, String review) {
		byte[] body = webhooks.endpoints().get(path).handle(bytes(review));
		JsonObject out = JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
		assertThat(out.get("apiVersion").getAsString()).isEqualTo("admission.k8s.io/v1");
		assertThat(out.get("kind").getAsString()).isEqualTo("AdmissionReview");
		return out.getAsJsonObject("response");
	}

	private static JsonStructure read(String json) {
		return Json.createReader(new StringReader(json)).read();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
