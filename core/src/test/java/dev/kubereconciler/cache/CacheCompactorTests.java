package dev.kubereconciler.cache;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.internal.context.ModelCopier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CacheCompactor} on objects decoded by client-java, as the informers
 * decode them. What the informers do with it is in
 * {@link CacheTransformsIntegrationTests}.
 */
class CacheCompactorTests {

	private static final String CONFIG_MAP = """
			{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"shop","uid":"%s",
			"resourceVersion":"%d","creationTimestamp":"2026-11-23T21:00:00Z",
			"labels":{"app.kubernetes.io/name":"cart","index":"%d"},
			"annotations":{"example.com/owner":"team-a","example.com/long":"%s"},
			"finalizers":["example.com/cleanup"],
			"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"cart",
			"uid":"8e9bd1fc-4f2b-4f6e-9a55-3a2f1d7c0b11","controller":true}]},
			"data":{"payload":"%s"}}""";

	private static final String LONG = "l".repeat(CacheCompactor.MAX_VALUE_LENGTH + 1);

	private static final String PAYLOAD = "x".repeat(1024);

	private final JSON json = new JSON();

	private final CacheCompactor compactor = new CacheCompactor();

	@Test
	void repeatedStringsAndTimesAreOneInstanceAcrossObjects() {
		V1ConfigMap first = this.compactor.compact(decode(1));
		V1ConfigMap second = this.compactor.compact(decode(2));
		V1ObjectMeta one = first.getMetadata();
		V1ObjectMeta two = second.getMetadata();
		assertThat(second.getApiVersion()).isSameAs(first.getApiVersion());
		assertThat(second.getKind()).isSameAs(first.getKind());
		assertThat(two.getNamespace()).isSameAs(one.getNamespace());
		assertThat(two.getCreationTimestamp()).isSameAs(one.getCreationTimestamp());
		assertThat(key(two.getLabels(), "app.kubernetes.io/name"))
			.isSameAs(key(one.getLabels(), "app.kubernetes.io/name"));
		assertThat(two.getLabels().get("app.kubernetes.io/name"))
			.isSameAs(one.getLabels().get("app.kubernetes.io/name"));
		assertThat(key(two.getAnnotations(), "example.com/owner"))
			.isSameAs(key(one.getAnnotations(), "example.com/owner"));
		assertThat(two.getAnnotations().get("example.com/owner"))
			.isSameAs(one.getAnnotations().get("example.com/owner"));
		assertThat(two.getFinalizers().get(0)).isSameAs(one.getFinalizers().get(0));
		assertThat(two.getOwnerReferences().get(0).getKind()).isSameAs(one.getOwnerReferences().get(0).getKind());
		assertThat(two.getOwnerReferences().get(0).getUid()).isSameAs(one.getOwnerReferences().get(0).getUid());
		assertThat(key(second.getData(), "payload")).isSameAs(key(first.getData(), "payload"));
	}

	@Test
	void dataValuesAndLongValuesAreNotShared() {
		V1ConfigMap first = this.compactor.compact(decode(1));
		V1ConfigMap second = this.compactor.compact(decode(2));
		// data is the payload of an object; equal payloads are a coincidence not worth
		// a lookup
		assertThat(second.getData().get("payload")).isEqualTo(PAYLOAD).isNotSameAs(first.getData().get("payload"));
		assertThat(second.getMetadata().getAnnotations().get("example.com/long")).isEqualTo(LONG)
			.isNotSameAs(first.getMetadata().getAnnotations().get("example.com/long"));
	}

	@Test
	void compactedObjectSaysWhatTheDecodedOneSays() {
		V1ConfigMap decoded = decode(1);
		V1ConfigMap compacted = this.compactor.compact(decode(1));
		assertThat(compacted).isEqualTo(decoded);
		assertThat(this.json.serialize(compacted)).isEqualTo(this.json.serialize(decoded));
		assertThat(compacted.getMetadata().getLabels()).isInstanceOf(CompactMap.class)
			.containsExactly(Map.entry("app.kubernetes.io/name", "cart"), Map.entry("index", "1"));
	}

	@Test
	void cachedMapsStayMutableForCodeThatChangesThem() {
		V1ConfigMap compacted = this.compactor.compact(decode(1));
		compacted.getMetadata().putLabelsItem("tier", "web");
		compacted.getMetadata().getAnnotations().remove("example.com/owner");
		compacted.putDataItem("extra", "value");
		assertThat(compacted.getMetadata().getLabels()).containsEntry("tier", "web").hasSize(3);
		assertThat(compacted.getMetadata().getAnnotations()).doesNotContainKey("example.com/owner");
		assertThat(compacted.getData()).containsKeys("payload", "extra");
	}

	@Test
	void reconcilerCopiesHoldOrdinaryMutableMaps() {
		V1ConfigMap cached = this.compactor.compact(decode(1));
		V1ConfigMap copy = new ModelCopier().copy(cached);
		assertThat(copy).isEqualTo(cached);
		assertThat(copy.getMetadata().getLabels()).isInstanceOf(LinkedHashMap.class);
		assertThat(copy.getData()).isInstanceOf(LinkedHashMap.class);
		copy.getMetadata().getLabels().put("app.kubernetes.io/name", "changed");
		copy.getData().clear();
		assertThat(cached.getMetadata().getLabels()).containsEntry("app.kubernetes.io/name", "cart");
		assertThat(cached.getData()).containsOnlyKeys("payload");
	}

	@Test
	void largeMapsKeepAHashTableWithSharedKeys() {
		StringBuilder data = new StringBuilder();
		for (int i = 0; i <= CacheCompactor.MAX_COMPACT_ENTRIES; i++) {
			data.append((i > 0) ? "," : "").append("\"key-").append(i).append("\":\"").append(i).append('"');
		}
		String body = "{\"metadata\":{\"name\":\"big\",\"namespace\":\"shop\"},\"data\":{" + data + "}}";
		V1ConfigMap first = this.compactor.compact(this.json.deserialize(body, V1ConfigMap.class));
		V1ConfigMap second = this.compactor.compact(this.json.deserialize(body, V1ConfigMap.class));
		assertThat(first.getData()).isInstanceOf(LinkedHashMap.class).hasSize(CacheCompactor.MAX_COMPACT_ENTRIES + 1);
		assertThat(first.getData().keySet()).startsWith("key-0", "key-1", "key-2");
		assertThat(key(second.getData(), "key-7")).isSameAs(key(first.getData(), "key-7"));
	}

	@Test
	void secretDataKeysAndTypeAreShared() {
		String body = """
				{"metadata":{"name":"s","namespace":"shop"},"type":"Opaque","data":{"password":"c2VjcmV0"}}""";
		V1Secret first = this.compactor.compact(this.json.deserialize(body, V1Secret.class));
		V1Secret second = this.compactor.compact(this.json.deserialize(body, V1Secret.class));
		assertThat(second.getType()).isSameAs(first.getType());
		assertThat(key(second.getData(), "password")).isSameAs(key(first.getData(), "password"));
		assertThat(new String(second.getData().get("password"))).isEqualTo("secret");
	}

	private V1ConfigMap decode(int index) {
		return this.json.deserialize(CONFIG_MAP.formatted("cm-" + index, "uid-" + index, index, index, LONG, PAYLOAD),
				V1ConfigMap.class);
	}

	private static String key(Map<String, ?> map, String key) {
		return map.keySet().stream().filter(key::equals).findFirst().orElseThrow();
	}

}
