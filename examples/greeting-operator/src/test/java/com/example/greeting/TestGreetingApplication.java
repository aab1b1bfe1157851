package com.example.greeting;

import org.springframework.boot.SpringApplication;

import dev.kubereconciler.test.LocalApiServerConfiguration;

/**
 * Runs the operator at development time against a local API server with the Greeting CRD
 * installed: {@code ./mvnw spring-boot:test-run}.
 */
public final class TestGreetingApplication {

	private TestGreetingApplication() {
	}

	public static void main(String[] args) {
		SpringApplication.from(GreetingApplication::main).with(LocalApiServerConfiguration.class).run(args);
	}

}
