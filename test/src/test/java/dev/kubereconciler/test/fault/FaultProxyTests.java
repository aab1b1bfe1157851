package dev.kubereconciler.test.fault;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A client-java informer and plain requests through the {@link FaultProxy} to the real
 * test API server: faults are felt, and the informer recovers from each without missing
 * an event.
 */
@KubernetesTest
class FaultProxyTests {

	private static final Duration RECOVERY = Duration.ofSeconds(30);

	private final KubernetesTestServer server;

	private final ApiClient direct;

	private final String namespace;

	private FaultProxy proxy;

	private ApiClient proxied;

	private SharedInformerFactory factory;

	private final List<String> events = new CopyOnWriteArrayList<>();

	FaultProxyTests(KubernetesTestServer server, ApiClient direct, TestNamespace namespace) {
		this.server = server;
		this.direct = direct;
		this.namespace = namespace.name();
	}

	@BeforeEach
	void startProxy() throws IOException {
		this.proxy = FaultProxy.start(this.server.url());
		this.proxied = client(Duration.ZERO);
	}

	@AfterEach
	void stopProxy() {
		if (this.factory != null) {
			this.factory.stopAllRegisteredInformers();
		}
		this.proxy.close();
	}

	@Test
	void informerRewatchesAfterAResetMidWatchAndMissesNoEvent() throws ApiException {
		SharedIndexInformer<V1ConfigMap> informer = startInformer();
		create("reset-a", "red");
		await().atMost(RECOVERY).until(() -> this.events.contains("ADD reset-a red"));
		int accepted = this.proxy.accepted();
		assertThat(this.proxy.resetAll()).isPositive();
		// written while the informer's watch is broken: seen through its re-list or
		// re-watch
		create("reset-b", "red");
		V1ConfigMap a = core(this.direct).readNamespacedConfigMap("reset-a", this.namespace).execute();
		core(this.direct).replaceNamespacedConfigMap("reset-a", this.namespace, a.data(Map.of("color", "blue")))
			.execute();
		await().atMost(RECOVERY)
			.until(() -> this.events.contains("ADD reset-b red") && this.events.contains("UPDATE reset-a blue"));
		// the informer's connection was broken, so it came back on a new one
		assertThat(this.proxy.accepted()).isGreaterThan(accepted);
		create("reset-c", "red");
		await().atMost(RECOVERY).until(() -> this.events.contains("ADD reset-c red"));
		assertThat(this.events.stream().filter((event) -> event.startsWith("ADD")))
			.containsExactlyInAnyOrder("ADD reset-a red", "ADD reset-b red", "ADD reset-c red");
		assertThat(informer.getIndexer().list()).hasSize(3);
	}

	@Test
	void blackHoleHoldsRequestsAndTheInformerRecoversWhenItEnds() throws ApiException, IOException {
		SharedIndexInformer<V1ConfigMap> informer = startInformer();
		await().atMost(RECOVERY).until(informer::hasSynced);
		this.proxy.blackHole(Duration.ofSeconds(3));
		ApiClient impatient = client(Duration.ofMillis(500));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> core(impatient).readNamespace(this.namespace).execute());
		create("held", "red");
		await().atMost(RECOVERY).until(() -> this.events.contains("ADD held red"));
		assertThat(core(impatient).readNamespace(this.namespace).execute().getMetadata().getName())
			.isEqualTo(this.namespace);
	}

	@Test
	void latencyDelaysEveryResponseByAtLeastItsBase() throws ApiException {
		core(this.proxied).readNamespace(this.namespace).execute();
		this.proxy.latency(Direction.TO_CLIENT, Duration.ofMillis(300), Duration.ofMillis(100));
		long start = System.nanoTime();
		core(this.proxied).readNamespace(this.namespace).execute();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		this.proxy.heal();
		core(this.proxied).readNamespace(this.namespace).execute();
	}

	private ApiClient client(Duration readTimeout) throws IOException {
		String kubeconfig = this.proxy.kubeconfig(Files.readString(this.server.kubeconfig()));
		return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeconfig)))
			.setReadTimeout(readTimeout)
			.build();
	}

	private SharedIndexInformer<V1ConfigMap> startInformer() {
		this.factory = new SharedInformerFactory(this.proxied);
		SharedIndexInformer<V1ConfigMap> informer = this.factory
			.sharedIndexInformerFor(new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1",
					"configmaps", this.proxied), V1ConfigMap.class, 0, this.namespace);
		informer.addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap configMap) {
				FaultProxyTests.this.events.add("ADD " + describe(configMap));
			}

			@Override
			public void onUpdate(V1ConfigMap old, V1ConfigMap configMap) {
				FaultProxyTests.this.events.add("UPDATE " + describe(configMap));
			}

			@Override
			public void onDelete(V1ConfigMap configMap, boolean finalStateUnknown) {
				FaultProxyTests.this.events.add("DELETE " + describe(configMap));
			}

		});
		this.factory.startAllRegisteredInformers();
		return informer;
	}

	private void create(String name, String color) throws ApiException {
		core(this.direct)
			.createNamespacedConfigMap(this.namespace,
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("color", color)))
			.execute();
	}

	private static CoreV1Api core(ApiClient client) {
		return new CoreV1Api(client);
	}

	private static String describe(V1ConfigMap configMap) {
		return configMap.getMetadata().getName() + " " + configMap.getData().get("color");
	}

}
