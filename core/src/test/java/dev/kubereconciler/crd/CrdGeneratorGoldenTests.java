package dev.kubereconciler.crd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CRD of a representative model, compared with a file reviewed by hand.
 */
class CrdGeneratorGoldenTests {

	@Test
	void representativeModelGivesTheReviewedCrd() throws IOException {
		String yaml = new CrdGenerator().yaml(Backup.class);
		try (InputStream golden = getClass().getResourceAsStream("backups.crd.kubereconciler.dev.yaml")) {
			assertThat(golden).as("the golden file").isNotNull();
			assertThat(yaml).isEqualTo(new String(golden.readAllBytes(), StandardCharsets.UTF_8));
		}
	}

}
