package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * A controller of one namespace whose informer comes from the application's own
 * client-java {@link SharedInformerFactory}: the factory holds one informer per type,
 * scoped to that namespace, so the controller's namespaces cannot change while it runs.
 * The change is refused with the reason and the fix, and the controller goes on as it
 * was.
 */
@KubernetesTest
class ApplicationInformerFactoryNamespacesIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	ApiClient client;

	TestNamespace namespace;

	private final Map<String, AtomicInteger> reconciles = new ConcurrentHashMap<>();

	private ControllerManager manager;

	@AfterEach
	void stop() {
		if (this.manager != null) {
			this.manager.stop();
		}
	}

	@Test
	void namespacesOfAControllerOnTheApplicationsFactoryAreRefusedAndItGoesOn() throws ApiException {
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		this.manager = ControllerManager.builder(this.client)
			.informerFactory(factory)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("scoped")
				.namespaces(this.namespace.name())
				.reconcile((configMap, context) -> {
					this.reconciles.computeIfAbsent(configMap.getMetadata().getName(), (name) -> new AtomicInteger())
						.incrementAndGet();
					return Result.done();
				}))
			.build();
		this.manager.start();
		createConfigMap("before");
		await().atMost(TIMEOUT).until(() -> reconciled("before"));
		Controller controller = this.manager.controller("scoped");

		assertThatIllegalArgumentException()
			.isThrownBy(() -> controller.changeNamespaces(Set.of(this.namespace.name(), "elsewhere")))
			.withMessageContaining("Controller 'scoped' cannot change its namespaces while it runs")
			.withMessageContaining("SharedInformerFactory")
			.withMessageContaining("leave the informer factory to the manager");

		assertThat(controller.namespaces()).containsExactly(this.namespace.name());
		createConfigMap("after");
		await().atMost(TIMEOUT).until(() -> reconciled("after"));
	}

	private boolean reconciled(String name) {
		AtomicInteger count = this.reconciles.get(name);
		return count != null && count.get() > 0;
	}

	private void createConfigMap(String name) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name(name)))
			.execute();
	}

}
