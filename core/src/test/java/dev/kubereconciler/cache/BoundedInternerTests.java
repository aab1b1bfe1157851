package dev.kubereconciler.cache;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link BoundedInterner}.
 */
class BoundedInternerTests {

	@Test
	void equalValuesShareTheFirstInstance() {
		BoundedInterner<String> interner = new BoundedInterner<>(16);
		String first = new String("team-a");
		String second = new String("team-a");
		assertThat(interner.intern(first)).isSameAs(first);
		assertThat(interner.intern(second)).isSameAs(first);
		assertThat(interner.intern(null)).isNull();
	}

	@Test
	void holdsNoMoreThanItsCapacityHoweverManyValuesPass() {
		BoundedInterner<String> interner = new BoundedInterner<>(4);
		assertThat(interner.capacity()).isEqualTo(8);
		List<String> originals = new ArrayList<>();
		for (int i = 0; i < 10_000; i++) {
			String value = "value-" + i;
			assertThat(interner.intern(value)).isSameAs(value);
			originals.add(value);
		}
		// the newest is still there, the others came and went
		assertThat(interner.intern(new String("value-9999"))).isSameAs(originals.get(9999));
		int stillHeld = 0;
		for (String original : originals) {
			if (interner.intern(new String(original)) == original) {
				stillHeld++;
			}
		}
		assertThat(stillHeld).isLessThanOrEqualTo(interner.capacity());
	}

	@Test
	void aValueInUseSurvivesOneCollisionInItsSet() {
		// one set: every value collides
		BoundedInterner<String> interner = new BoundedInterner<>(1);
		String namespace = new String("production");
		interner.intern(namespace);
		List<String> unique = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			unique.add(interner.intern("index-" + i));
			// the namespace is used between any two unique values, so it stays
			assertThat(interner.intern(new String("production"))).isSameAs(namespace);
		}
		assertThat(unique).doesNotHaveDuplicates();
	}

	@Test
	void rejectsASizeThatIsNotAPowerOfTwo() {
		assertThatIllegalArgumentException().isThrownBy(() -> new BoundedInterner<>(3))
			.withMessageContaining("power of two");
	}

}
