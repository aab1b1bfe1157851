package dev.kubereconciler.actuate;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.controller.ControllerDefinition;

/**
 * An application, for web tests against the test API server, with one controller named
 * {@code flaky} whose reconciler always fails; each test class selects its own ConfigMaps
 * with {@code kube-reconciler.controllers.flaky.label-selector}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class FlakyControllerApplication {

	/** Exposes the endpoint, health with details, and Prometheus. */
	static final String EXPOSE = "management.endpoints.web.exposure.include=controllers,health,prometheus";

	static final String HEALTH_DETAILS = "management.endpoint.health.show-details=always";

	/** One reconcile every 2 s across the manager, none in reserve. */
	static final String MANAGER_QPS = "kube-reconciler.manager.rate-limiter.qps=0.5";

	static final String MANAGER_BURST = "kube-reconciler.manager.rate-limiter.burst=1";

	static final String LIMITER = "kube-reconciler.controllers.flaky.rate-limiter.type=max-of";

	/** 50 ms after the first failure of a key, 100 ms after later ones. */
	static final String BACKOFF = "kube-reconciler.controllers.flaky.rate-limiter.limiters[0].type=fast-slow";

	static final String FAST_DELAY = "kube-reconciler.controllers.flaky.rate-limiter.limiters[0].fast-delay=50ms";

	static final String SLOW_DELAY = "kube-reconciler.controllers.flaky.rate-limiter.limiters[0].slow-delay=100ms";

	static final String FAST_ATTEMPTS = "kube-reconciler.controllers.flaky.rate-limiter.limiters[0].max-fast-attempts=1";

	/** One token every 1000 s, none in reserve: the second failure waits for it. */
	static final String BUCKET = "kube-reconciler.controllers.flaky.rate-limiter.limiters[1].type=bucket";

	static final String BUCKET_QPS = "kube-reconciler.controllers.flaky.rate-limiter.limiters[1].qps=0.001";

	static final String BUCKET_BURST = "kube-reconciler.controllers.flaky.rate-limiter.limiters[1].burst=1";

	static final String LABEL = "kube-reconciler-test";

	@Bean
	ControllerDefinition flaky() {
		return ControllerDefinition.builder(V1ConfigMap.class).named("flaky").reconcile((request) -> {
			throw new IllegalStateException("Failing on purpose: " + request);
		});
	}

}
