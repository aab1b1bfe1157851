package dev.kubereconciler.sample.widget;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.crd.CrdGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Widget CRD the build generates, against a reviewed copy: a change to the model that
 * changes the CRD shows up here, to be reviewed and copied into
 * {@code src/test/resources/golden}.
 */
class WidgetCrdGoldenTests {

	@Test
	void theGeneratedCrdIsTheReviewedOne() throws IOException {
		assertThat(new CrdGenerator().yaml(Widget.class)).isEqualTo(golden("widgets.sample.kubereconciler.dev.yaml"));
	}

	private static String golden(String name) throws IOException {
		try (InputStream in = WidgetCrdGoldenTests.class.getResourceAsStream("/golden/" + name)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
