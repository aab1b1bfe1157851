package dev.kubereconciler.test.assertions;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The field paths of {@link ObjectAssert#hasField}: kubectl's JSONPath without braces and
 * the leading dot.
 */
class FieldPathTests {

	private final JsonObject object = JsonParser.parseString("""
			{"metadata":{"labels":{"app":"shop","app.kubernetes.io/name":"web"}},
			 "spec":{"containers":[{"image":"a"},{"image":"b"}]},"status":{"replicas":3}}
			""").getAsJsonObject();

	@Test
	void keysListIndexesAndEscapedDotsAreFollowed() {
		assertThat(FieldPath.parse("status.replicas").find(this.object)).hasToString("3");
		assertThat(FieldPath.parse("metadata.labels.app").find(this.object)).hasToString("\"shop\"");
		assertThat(FieldPath.parse("metadata.labels.app\\.kubernetes\\.io/name").find(this.object))
			.hasToString("\"web\"");
		assertThat(FieldPath.parse("spec.containers[1].image").find(this.object)).hasToString("\"b\"");
	}

	@Test
	void missingStepsFindNothing() {
		assertThat(FieldPath.parse("status.ready").find(this.object)).isNull();
		assertThat(FieldPath.parse("spec.containers[2].image").find(this.object)).isNull();
		assertThat(FieldPath.parse("status.replicas.value").find(this.object)).isNull();
		assertThat(FieldPath.parse("status[0]").find(this.object)).isNull();
	}

	@Test
	void malformedPathsAreRefusedWithTheSyntax() {
		assertThatIllegalArgumentException().isThrownBy(() -> FieldPath.parse("status..replicas"))
			.withMessage("Invalid field path 'status..replicas': it has an empty key; write it as status.replicas, "
					+ "spec.containers[0].image or metadata.labels.app\\.kubernetes\\.io/name");
		assertThatIllegalArgumentException().isThrownBy(() -> FieldPath.parse("spec.containers[first]"))
			.withMessageStartingWith("Invalid field path 'spec.containers[first]': '[first]' is not a list index");
		assertThatIllegalArgumentException().isThrownBy(() -> FieldPath.parse("spec.containers[0"))
			.withMessageStartingWith("Invalid field path 'spec.containers[0': a '[' has no ']'");
	}

}
