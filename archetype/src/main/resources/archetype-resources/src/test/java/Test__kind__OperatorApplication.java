package ${package};

import org.springframework.boot.SpringApplication;

import dev.kubereconciler.test.LocalApiServerConfiguration;

/**
 * Runs the operator at development time against a local API server that it starts itself,
 * with the ${kind} CRD installed and the validating webhook registered:
 * {@code mvn spring-boot:test-run}.
 */
public final class Test${kind}OperatorApplication {

	private Test${kind}OperatorApplication() {
	}

	public static void main(String[] args) {
		SpringApplication.from(${kind}OperatorApplication::main)
			.with(LocalApiServerConfiguration.class)
			.withAdditionalProfiles("local")
			.run(args);
	}

}
