package dev.kubereconciler.cache;

import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link CompactMap}: it must behave as the mutable, ordered map it replaces.
 */
class CompactMapTests {

	@Test
	void readsAndIteratesInTableOrder() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "b", "2", "a", "1", "c", "3" });
		assertThat(map).hasSize(3).containsEntry("a", "1").containsEntry("c", "3").doesNotContainKey("d");
		assertThat(map.get("d")).isNull();
		assertThat(map.keySet()).containsExactly("b", "a", "c");
		assertThat(map.values()).containsExactly("2", "1", "3");
	}

	@Test
	void putReplacesInPlaceAndAppendsNewKeys() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", "1" });
		assertThat(map.put("a", "one")).isEqualTo("1");
		assertThat(map.put("b", "two")).isNull();
		assertThat(map.put("c", null)).isNull();
		assertThat(map.containsKey("c")).isTrue();
		assertThat(map.keySet()).containsExactly("a", "b", "c");
		assertThat(map).containsEntry("a", "one").containsEntry("b", "two");
	}

	@Test
	void removeKeepsTheOrderOfTheRest() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", "1", "b", "2", "c", "3" });
		assertThat(map.remove("b")).isEqualTo("2");
		assertThat(map.remove("missing")).isNull();
		assertThat(map.keySet()).containsExactly("a", "c");
		map.remove("a");
		map.remove("c");
		assertThat(map).isEmpty();
		map.put("d", "4");
		assertThat(map).containsExactly(Map.entry("d", "4"));
		map.clear();
		assertThat(map).isEmpty();
	}

	@Test
	void iteratorRemovesAndEntriesWriteThrough() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", "1", "b", "2", "c", "3" });
		Iterator<Map.Entry<String, String>> entries = map.entrySet().iterator();
		Map.Entry<String, String> first = entries.next();
		assertThat(first.setValue("one")).isEqualTo("1");
		assertThat(first.getValue()).isEqualTo("one");
		entries.next();
		entries.remove();
		assertThatIllegalStateException().isThrownBy(entries::remove);
		assertThat(entries.next().getKey()).isEqualTo("c");
		assertThat(entries.hasNext()).isFalse();
		assertThat(map).containsExactly(Map.entry("a", "one"), Map.entry("c", "3"));
		map.values().removeIf("3"::equals);
		assertThat(map).containsExactly(Map.entry("a", "one"));
	}

	@Test
	void iteratorFailsFastOnAStructuralChange() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", "1", "b", "2" });
		Iterator<String> keys = map.keySet().iterator();
		keys.next();
		map.put("c", "3");
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(keys::next);
	}

	@Test
	void equalsAndHashCodeAreThoseOfAnyMap() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", "1", "b", "2" });
		Map<String, String> linked = new LinkedHashMap<>(Map.of("b", "2", "a", "1"));
		assertThat(map).isEqualTo(linked);
		assertThat(linked).isEqualTo(map);
		assertThat(map.hashCode()).isEqualTo(linked.hashCode());
		assertThat(map.toString()).isEqualTo("{a=1, b=2}");
	}

	@Test
	void equalityTellsAMissingKeyFromANullValue() {
		CompactMap<String, String> map = new CompactMap<>(new Object[] { "a", null });
		Map<String, String> same = new LinkedHashMap<>();
		same.put("a", null);
		Map<String, String> other = new LinkedHashMap<>();
		other.put("b", null);
		assertThat(map).isEqualTo(same).isNotEqualTo(other).isNotEqualTo(Map.of());
		assertThat(map.hashCode()).isEqualTo(same.hashCode());
		assertThat(map.toString()).isEqualTo(same.toString());
	}

	@Test
	void viewsReadAndRemoveThroughTheMap() {
		CompactMap<String, String> map = new CompactMap<>();
		assertThat(map.isEmpty()).isTrue();
		map.putAll(Map.of("a", "1"));
		map.putAll(Map.of("b", "2"));
		assertThat(map.isEmpty()).isFalse();
		assertThat(map.containsValue("2")).isTrue();
		assertThat(map.containsValue("a")).isFalse();
		assertThat(map.keySet()).contains("a").doesNotContain("1").hasSize(2);
		assertThat(map.values()).contains("1").doesNotContain("a").hasSize(2);
		map.keySet().remove("a");
		assertThat(map).containsExactly(Map.entry("b", "2"));
		Iterator<String> values = map.values().iterator();
		values.next();
		values.remove();
		assertThat(map).isEmpty();
		assertThat(map.getOrDefault("a", "none")).isEqualTo("none");
	}

	@Test
	void rejectsATableWithoutPairs() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new CompactMap<>(new Object[] { "a" }));
	}

}
