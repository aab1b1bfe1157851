package dev.kubereconciler.test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What three test classes of one JVM check together ({@link SharedServerFirstTests},
 * {@link SharedServerSecondTests}, {@link SharedServerThirdTests}): one server for all of
 * them, and a namespace of each class's own that the others' objects never reach.
 * Whichever class runs later checks against what the earlier ones recorded, in any order.
 */
abstract class SharedServerCheck {

	private static final Set<KubernetesTestServer> SERVERS = ConcurrentHashMap.newKeySet();

	private static final Map<String, String> NAMESPACES = new ConcurrentHashMap<>();

	@Test
	void oneServerServesEveryClassAndEachClassHasANamespaceOfItsOwn(KubernetesTestServer server, ApiClient client,
			TestNamespace namespace) throws ApiException {
		SERVERS.add(server);
		assertThat(SERVERS).as("servers started in this JVM").containsExactly(KubernetesTestServer.shared());
		String previous = NAMESPACES.putIfAbsent(getClass().getSimpleName(), namespace.name());
		assertThat(previous).isNull();
		assertThat(NAMESPACES.values()).as("the namespaces of the classes so far").doesNotHaveDuplicates();
		CoreV1Api core = new CoreV1Api(client);
		core.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("marker"))
			.data(Map.of("class", getClass().getSimpleName()))).execute();
		List<String> owners = core.listNamespacedConfigMap(namespace.name())
			.execute()
			.getItems()
			.stream()
			.filter((configMap) -> configMap.getData() != null && configMap.getData().containsKey("class"))
			.map((configMap) -> configMap.getData().get("class"))
			.toList();
		assertThat(owners).as("markers in this class's namespace").containsExactly(getClass().getSimpleName());
	}

}
