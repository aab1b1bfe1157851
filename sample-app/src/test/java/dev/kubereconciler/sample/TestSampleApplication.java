package dev.kubereconciler.sample;

import org.springframework.boot.SpringApplication;

import dev.kubereconciler.test.LocalApiServerConfiguration;

/**
 * Runs the sample against a local etcd and kube-apiserver that it starts itself, seeded
 * with demo objects: {@code ./mvnw -pl sample-app spring-boot:test-run}, or
 * {@code ./dev run}.
 */
public final class TestSampleApplication {

	private TestSampleApplication() {
	}

	public static void main(String[] args) {
		SpringApplication.from(SampleApplication::main)
			.with(LocalApiServerConfiguration.class, DemoObjectsConfiguration.class)
			.withAdditionalProfiles("local")
			.run(args);
	}

}
