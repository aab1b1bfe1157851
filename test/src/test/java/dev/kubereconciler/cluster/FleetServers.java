package dev.kubereconciler.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.test.KubernetesTestServer;

/**
 * Three real API servers for the fleet tests: the JVM's shared one and two started here,
 * each with the Widget CRD and the test's namespace, named {@code one}, {@code two} and
 * {@code three}.
 */
final class FleetServers implements AutoCloseable {

	static final List<String> NAMES = List.of("one", "two", "three");

	private final Map<String, KubernetesTestServer> servers = new LinkedHashMap<>();

	private final List<KubernetesTestServer> started = new ArrayList<>();

	FleetServers() {
		KubernetesTestServer shared = KubernetesTestServer.shared();
		this.servers.put("one", shared);
		try {
			for (String name : NAMES.subList(1, NAMES.size())) {
				KubernetesTestServer server = KubernetesTestServer.start(shared.assets());
				this.started.add(server);
				this.servers.put(name, server);
			}
			for (KubernetesTestServer server : this.servers.values()) {
				new CrdInstaller(server.apiClient(), "fleet-tests").install(new CrdFiles(getClass().getClassLoader())
					.find(List.of("dev/kubereconciler/cluster/widgets.yaml"), List.of()));
			}
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	KubernetesTestServer server(String name) {
		return this.servers.get(name);
	}

	ApiClient client(String name) {
		return this.servers.get(name).apiClient();
	}

	void createNamespace(String namespace) throws ApiException {
		for (String name : NAMES.subList(1, NAMES.size())) {
			new CoreV1Api(client(name)).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
				.execute();
		}
	}

	static GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets(ApiClient client) {
		return CustomResourceList.api(Widget.class, client);
	}

	@Override
	public void close() {
		this.started.forEach(KubernetesTestServer::close);
	}

}
