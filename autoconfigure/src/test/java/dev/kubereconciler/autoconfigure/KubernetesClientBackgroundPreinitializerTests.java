package dev.kubereconciler.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.preinitialize.BackgroundPreinitializer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link KubernetesClientBackgroundPreinitializer}: Spring Boot finds it among
 * its background pre-initialisers, and it makes a client without a cluster.
 */
class KubernetesClientBackgroundPreinitializerTests {

	@Test
	void springBootRunsItInItsBackgroundPreinitialisation() {
		assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(BackgroundPreinitializer.class))
			.hasAtLeastOneElementOfType(KubernetesClientBackgroundPreinitializer.class);
	}

	@Test
	void itMakesAClientWithoutReadingAKubeconfigOrCallingAServer() {
		assertThatNoException().isThrownBy(() -> new KubernetesClientBackgroundPreinitializer().preinitialize());
	}

}
