package dev.kubereconciler.internal.cache;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.jar.JarFile;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.TypeAdapterFactory;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Status;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelAdapters} reads and writes every type as client-java's {@code JSON} does:
 * compared with a Gson made as {@code JSON}'s initializer makes it, one factory per
 * model, on every model of client-java and on documents of the types a controller
 * watches, owns and maps, with unknown fields, dates, bytes, quantities and int-or-string
 * values.
 */
class ModelAdaptersTests {

	private static final String MODELS = "io/kubernetes/client/openapi/models/";

	private static final String FACTORY = "$CustomTypeAdapterFactory.class";

	private final Gson lazy = lazy();

	private final Gson eager = eager();

	@Test
	void everyModelReadsAndWritesAsWithOneFactoryPerModel() throws Exception {
		List<Class<?>> models = models();
		assertThat(models).hasSizeGreaterThan(700);
		for (Class<?> model : models) {
			// the factory of the nearest model superclass is client-java's choice only
			// while no model extends another
			assertThat(model.getSuperclass()).as(model.getName()).isEqualTo(Object.class);
			assertThat(ModelAdapters.model(model)).isEqualTo(model);
			for (String json : List.of("{}", "{\"unknownField\":{\"a\":[1,2]},\"metadata\":{\"name\":\"a\"}}")) {
				assertThat(roundTrip(this.lazy, json, model)).as(model.getName() + " " + json)
					.isEqualTo(roundTrip(this.eager, json, model));
			}
		}
	}

	@Test
	void watchedOwnedAndMappedTypesReadAsBefore() {
		String configMaps = """
				{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"42"},
				 "items":[{"metadata":{"name":"a","namespace":"n","uid":"u-1",
				   "creationTimestamp":"2026-11-27T18:00:00Z","deletionTimestamp":"2026-11-27T18:00:01.123456Z",
				   "managedFields":[{"manager":"kubectl","operation":"Apply","time":"2026-11-27T18:00:00Z"}],
				   "labels":{"app":"x"},"annotations":{"a":"b"}},
				   "data":{"k":"v"},"binaryData":{"b":"AAECAw=="},"immutable":true}]}""";
		String deployment = """
				{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","generation":3,
				  "ownerReferences":[{"apiVersion":"example.com/v1","kind":"Greeting","name":"g","uid":"u-2",
				    "controller":true,"blockOwnerDeletion":true}]},
				 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"d"}},
				  "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
				  "template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"i",
				    "resources":{"limits":{"cpu":"500m","memory":"1Gi"}},"ports":[{"containerPort":8080}]}]}}},
				 "status":{"conditions":[{"type":"Available","status":"True",
				   "lastTransitionTime":"2026-11-27T18:00:00.5Z","lastUpdateTime":"2026-11-27T18:00:00+01:00"}]}}""";
		String secret = """
				{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque",
				 "data":{"password":"c2VjcmV0"},"stringData":{"plain":"text"}}""";
		String pod = """
				{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
				 "spec":{"containers":[{"name":"c","image":"i"}]},
				 "status":{"phase":"Running","startTime":"2026-11-27T18:00:00Z","podIP":"10.0.0.1"}}""";
		String status = """
				{"kind":"Status","apiVersion":"v1","status":"Failure","message":"not found","reason":"NotFound",
				 "details":{"name":"a","kind":"configmaps"},"code":404}""";
		assertReadAndWrittenAsBefore(configMaps, V1ConfigMapList.class);
		assertReadAndWrittenAsBefore(deployment, V1Deployment.class);
		assertReadAndWrittenAsBefore(secret, V1Secret.class);
		assertReadAndWrittenAsBefore(pod, V1Pod.class);
		assertReadAndWrittenAsBefore(status, V1Status.class);
		V1ConfigMapList read = this.lazy.fromJson(configMaps, V1ConfigMapList.class);
		V1ConfigMap item = read.getItems().get(0);
		assertThat(item.getMetadata().getCreationTimestamp()).isEqualTo(OffsetDateTime.parse("2026-11-27T18:00:00Z"));
		assertThat(item.getBinaryData()).containsKey("b");
		assertThat(item.getBinaryData().get("b")).containsExactly(0, 1, 2, 3);
		assertThat(item.getData()).containsEntry("k", "v");
	}

	@Test
	void aModelWhoseAdapterRefusesUnknownFieldsStillDoes() {
		for (String json : List.of("{\"metadata\":{\"name\":\"a\"},\"notInTheModel\":1}",
				"{\"metadata\":{\"name\":\"a\",\"futureField\":{\"x\":true}}}")) {
			assertThat(roundTrip(this.lazy, json, V1ConfigMap.class))
				.startsWith(IllegalArgumentException.class.getName())
				.isEqualTo(roundTrip(this.eager, json, V1ConfigMap.class));
		}
	}

	@Test
	void aSubclassOfAModelReadsAsTheModel() throws IOException {
		String json = "{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}";
		Object read = this.lazy.getAdapter(Subclass.class).fromJson(json);
		assertThat(read).isEqualTo(this.eager.getAdapter(Subclass.class).fromJson(json))
			.isExactlyInstanceOf(V1ConfigMap.class);
	}

	@Test
	void installGivesJsonTheGsonOnce() {
		ModelAdapters.install();
		Gson installed = JSON.getGson();
		ModelAdapters.install();
		assertThat(JSON.getGson()).isSameAs(installed);
		assertThat(installed.toString()).doesNotContain(FACTORY.replace(".class", ""));
		V1ConfigMap read = new JSON().deserialize("{\"metadata\":{\"name\":\"a\"}}", V1ConfigMap.class);
		assertThat(read)
			.isEqualTo(new V1ConfigMap().metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("a")));
	}

	private void assertReadAndWrittenAsBefore(String json, Class<?> type) {
		assertThat(roundTrip(this.lazy, json, type)).isEqualTo(roundTrip(this.eager, json, type));
		// read, not refused
		Object before = this.eager.fromJson(json, type);
		Object after = this.lazy.fromJson(json, type);
		// by field: a byte[] in a map (binaryData) is equal only to itself
		assertThat(after).usingRecursiveComparison().isEqualTo(before);
		assertThat(this.lazy.toJson(before)).isEqualTo(this.eager.toJson(before));
	}

	private static String roundTrip(Gson gson, String json, Class<?> type) {
		try {
			Object read = gson.fromJson(json, type);
			return gson.toJson(read);
		}
		catch (RuntimeException ex) {
			return ex.getClass().getName() + ": " + ex.getMessage();
		}
	}

	private static Gson lazy() {
		try {
			return ModelAdapters.gson();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	// as JSON's initializer makes it: JSON.createGson(), its adapters, then one factory
	// per model
	@Test
	void clientJavasOwnGsonIsReplacedAndAnApplicationsOwnIsKept() throws ReflectiveOperationException {
		assertThat(ModelAdapters.isClientJavas(this.eager)).isTrue();
		Gson withAdapterOfItsOwn = this.eager.newBuilder()
			.registerTypeAdapter(Duration.class, new com.google.gson.JsonSerializer<Duration>() {
				@Override
				public com.google.gson.JsonElement serialize(Duration duration, Type type,
						com.google.gson.JsonSerializationContext context) {
					return new com.google.gson.JsonPrimitive(duration.toString());
				}
			})
			.create();
		assertThat(ModelAdapters.isClientJavas(withAdapterOfItsOwn)).isFalse();
		assertThat(ModelAdapters.isClientJavas(this.eager.newBuilder().serializeNulls().create())).isFalse();
		assertThat(ModelAdapters.isClientJavas(new Gson())).isFalse();
	}

	private static Gson eager() {
		try {
			GsonBuilder builder = JSON.createGson();
			Object[][] adapters = { { Date.class, "dateTypeAdapter" }, { java.sql.Date.class, "sqlDateTypeAdapter" },
					{ OffsetDateTime.class, "offsetDateTimeTypeAdapter" }, { LocalDate.class, "localDateTypeAdapter" },
					{ byte[].class, "byteArrayAdapter" } };
			for (Object[] adapter : adapters) {
				Field field = JSON.class.getDeclaredField((String) adapter[1]);
				field.setAccessible(true);
				builder.registerTypeAdapter((Type) adapter[0], field.get(null));
			}
			for (Class<?> model : models()) {
				builder.registerTypeAdapterFactory(
						(TypeAdapterFactory) Class.forName(model.getName() + FACTORY.replace(".class", ""))
							.getDeclaredConstructor()
							.newInstance());
			}
			return builder.create();
		}
		catch (ReflectiveOperationException | IOException | URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<Class<?>> models() throws IOException, URISyntaxException, ClassNotFoundException {
		Path jar = Path.of(V1ConfigMap.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		List<Class<?>> models = new ArrayList<>();
		try (JarFile file = new JarFile(jar.toFile())) {
			for (String name : file.stream().map((entry) -> entry.getName()).sorted().toList()) {
				if (name.startsWith(MODELS) && name.endsWith(FACTORY)
						&& name.indexOf('$') == name.length() - FACTORY.length()) {
					models.add(Class.forName(name.substring(0, name.length() - FACTORY.length()).replace('/', '.')));
				}
			}
		}
		return models;
	}

	static class Subclass extends V1ConfigMap {

	}

}
