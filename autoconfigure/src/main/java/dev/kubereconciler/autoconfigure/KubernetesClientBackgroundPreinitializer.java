package dev.kubereconciler.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.autoconfigure.preinitialize.BackgroundPreinitializer;

/**
 * Makes a throw-away client-java {@link ApiClient} in Spring Boot's background
 * pre-initialisation thread, while the main thread parses the configuration.
 *
 * <p>
 * The {@code kubernetesApiClient} bean was the largest of ours in the start-up steps
 * (benchmarks/RESULTS.md, section 11): its {@code ApiClient} runs the static initialiser
 * of client-java's {@code JSON}, which loads one type adapter factory class per model
 * (768 in client-java 27), and builds OkHttp's client with the JDK's default trust store.
 * Done once here, the bean finds those classes loaded and initialised. Spring Boot runs
 * this only with more than one processor, never in a native image, and not with
 * {@code -Dspring.backgroundpreinitializer.ignore=true}; a failure here is ignored, and
 * the bean then does the work as before.
 */
final class KubernetesClientBackgroundPreinitializer implements BackgroundPreinitializer {

	@Override
	public void preinitialize() {
		new ApiClient();
	}

}
