package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Probe;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.ServiceNetwork;

/**
 * Prepares what a kubelet prepares before it starts a pod's container: the pod's name and
 * IP, its volumes, its environment, its identity and its probes.
 */
final class ReplicaFactory {

	private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

	private static final List<String> PASSED_THROUGH = List.of("PATH", "LANG", "LC_ALL", "TZ", "TMPDIR");

	private final Random random = new SecureRandom();

	private final KubernetesTestServer server;

	private final CoreV1Api api;

	private final String namespace;

	private final V1Deployment deployment;

	private final V1PodTemplateSpec template;

	private final V1Container container;

	private final String mainClass;

	private final String classPath;

	private final @Nullable Duration probePeriod;

	private final Path directory;

	private final Clock clock;

	private final String templateHash;

	private final @Nullable BiFunction<String, String, String> kubeconfigs;

	ReplicaFactory(KubernetesTestServer server, String namespace, V1Deployment deployment,
			@Nullable String containerName, String mainClass, String classPath, @Nullable Duration probePeriod,
			Path directory, Clock clock, @Nullable BiFunction<String, String, String> kubeconfigs) {
		this.server = server;
		this.api = new CoreV1Api(server.apiClient());
		this.namespace = namespace;
		this.deployment = deployment;
		this.template = deployment.getSpec().getTemplate();
		this.container = container(Objects.requireNonNull(this.template.getSpec()), containerName);
		this.mainClass = mainClass;
		this.classPath = classPath;
		this.probePeriod = probePeriod;
		this.directory = directory;
		this.clock = clock;
		this.templateHash = randomName(10);
		this.kubeconfigs = kubeconfigs;
		// a variable Spring Boot ignores fails here, not silently in the pod
		EnvironmentBinding.check(this.container, classPath);
		serviceAccountExists();
	}

	Created create() {
		V1PodSpec spec = Objects.requireNonNull(this.template.getSpec());
		PodIdentity pod = new PodIdentity(
				this.deployment.getMetadata().getName() + "-" + this.templateHash + "-" + randomName(5), this.namespace,
				UUID.randomUUID().toString(), podIp(), serviceAccountName(),
				Objects.requireNonNullElse(this.template.getMetadata().getLabels(), Map.of()),
				Objects.requireNonNullElse(this.template.getMetadata().getAnnotations(), Map.of()));
		Path folder = this.directory.resolve(this.namespace).resolve(pod.name()).toAbsolutePath();
		try {
			Files.createDirectories(folder);
			Path kubeconfig = folder.resolve("kubeconfig");
			// the test server issues no ServiceAccount tokens: a client certificate for
			// the ServiceAccount's user name and groups is judged by RBAC alike
			String written = this.server.kubeconfig(pod.serviceAccountUser(), "system:serviceaccounts",
					"system:serviceaccounts:" + this.namespace, "system:authenticated");
			Files.writeString(kubeconfig,
					(this.kubeconfigs != null) ? this.kubeconfigs.apply(pod.name(), written) : written);
			PodVolumes volumes = new PodVolumes(this.api, this.namespace,
					Objects.requireNonNullElse(spec.getVolumes(), List.of()), folder.resolve("volumes"), this.clock);
			volumes.refresh();
			MountPaths mountPaths = new MountPaths(this.container, volumes);
			// as the kubelet, at every start of the container; once now, so that a
			// missing Secret or key fails before any replica starts
			Supplier<Map<String, String>> environment = () -> environment(pod, kubeconfig, mountPaths);
			environment.get();
			List<String> command = JvmCommand.of(this.container, java(), this.classPath, this.mainClass, mountPaths);
			// what ran, beside the log, which it would flood with the class path
			Files.write(folder.resolve("command"), command);
			Replica replica = new Replica(pod, command, environment, folder.resolve(this.container.getName() + ".log"),
					grace(spec), this.clock, probes(pod));
			// as the endpoints controller: a Service that selects the pod routes to it
			// while it is ready
			ServiceNetwork.Registration endpoint = this.server.serviceNetwork()
				.addPod(this.namespace, pod.name(), pod.ip(), pod.labels(), namedPorts(), replica::isReady);
			return new Created(replica, volumes, endpoint);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Map<String, String> environment(PodIdentity pod, Path kubeconfig, MountPaths mountPaths) {
		Map<String, String> environment = new LinkedHashMap<>();
		for (String name : PASSED_THROUGH) {
			String value = System.getenv(name);
			if (value != null) {
				environment.put(name, value);
			}
		}
		// what the kubelet adds: the host name and the kubernetes Service
		environment.put("HOSTNAME", pod.name());
		environment.put("KUBERNETES_SERVICE_HOST", this.server.url().getHost());
		environment.put("KUBERNETES_SERVICE_PORT", Integer.toString(this.server.url().getPort()));
		new ContainerEnvironment(this.api, pod, this.container.getName()).resolve(this.container)
			.forEach((name, value) -> environment.put(name, mountPaths.rewrite(value)));
		// the runner's part: the identity, and the pod's own address for every server
		// the application opens, since the process shares the host's network
		environment.put("KUBECONFIG", kubeconfig.toString());
		environment.put("SERVER_ADDRESS", pod.ip());
		// Spring Boot refuses a management address unless the management server has a
		// port of its own
		String managementPort = environment.get("MANAGEMENT_SERVER_PORT");
		if (managementPort != null && !managementPort.isEmpty()
				&& !managementPort.equals(environment.getOrDefault("SERVER_PORT", "8080"))) {
			environment.put("MANAGEMENT_SERVER_ADDRESS", pod.ip());
		}
		environment.put("KUBERECONCILER_WEBHOOKS_ADDRESS", pod.ip());
		return environment;
	}

	private ReplicaProbes probes(PodIdentity pod) {
		return new ReplicaProbes(probe("startup", this.container.getStartupProbe(), pod),
				probe("liveness", this.container.getLivenessProbe(), pod),
				probe("readiness", this.container.getReadinessProbe(), pod));
	}

	private @Nullable ProbeRunner probe(String kind, @Nullable V1Probe probe, PodIdentity pod) {
		return (probe != null)
				? new ProbeRunner(kind, probe, this.container, pod.ip(), this.probePeriod, this.clock.instant()) : null;
	}

	private static Duration grace(V1PodSpec spec) {
		return Duration.ofSeconds(Objects.requireNonNullElse(spec.getTerminationGracePeriodSeconds(), 30L));
	}

	private String serviceAccountName() {
		V1PodSpec spec = Objects.requireNonNull(this.template.getSpec());
		String name = spec.getServiceAccountName();
		return (name != null && !name.isEmpty()) ? name : "default";
	}

	// the ServiceAccount admission plugin refuses a pod whose ServiceAccount is missing;
	// the test server creates no default ServiceAccount, so only a named one is checked
	private void serviceAccountExists() {
		String name = serviceAccountName();
		if (name.equals("default")) {
			return;
		}
		try {
			this.api.readNamespacedServiceAccount(name, this.namespace).execute();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("The pod template's ServiceAccount " + this.namespace + "/" + name
					+ ((ex.getCode() == 404) ? " does not exist; apply the manifests' ServiceAccount first"
							: " cannot be read: " + ex.getCode() + " " + ex.getResponseBody()),
					ex);
		}
	}

	// A loopback address of its own, so that each replica binds the container ports as
	// declared; random in 127/8 so that test JVMs running side by side do not collide.
	private String podIp() {
		for (int attempt = 0; attempt < 100; attempt++) {
			String ip = "127." + (1 + this.random.nextInt(254)) + "." + this.random.nextInt(256) + "."
					+ (2 + this.random.nextInt(253));
			if (portsFree(ip)) {
				return ip;
			}
		}
		throw new IllegalStateException("Found no loopback address whose container ports are free");
	}

	private boolean portsFree(String ip) {
		for (V1ContainerPort port : Objects.requireNonNullElse(this.container.getPorts(), List.<V1ContainerPort>of())) {
			try (ServerSocket socket = new ServerSocket()) {
				socket.bind(new InetSocketAddress(InetAddress.getByName(ip), port.getContainerPort()));
			}
			catch (IOException ex) {
				return false;
			}
		}
		return true;
	}

	private String randomName(int length) {
		StringBuilder name = new StringBuilder();
		for (int i = 0; i < length; i++) {
			name.append(ALPHABET.charAt(this.random.nextInt(ALPHABET.length())));
		}
		return name.toString();
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private Map<String, Integer> namedPorts() {
		Map<String, Integer> ports = new LinkedHashMap<>();
		for (V1ContainerPort port : Objects.requireNonNullElse(this.container.getPorts(), List.<V1ContainerPort>of())) {
			if (port.getName() != null) {
				ports.put(port.getName(), port.getContainerPort());
			}
		}
		return ports;
	}

	private static V1Container container(V1PodSpec spec, @Nullable String name) {
		List<V1Container> containers = spec.getContainers();
		if (name == null) {
			return containers.get(0);
		}
		return containers.stream()
			.filter((candidate) -> name.equals(candidate.getName()))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("The pod template has no container named '" + name
					+ "'; it has " + containers.stream().map(V1Container::getName).toList()));
	}

	/**
	 * A replica and its volumes, which the application refreshes.
	 *
	 * @param replica the replica, not started
	 * @param volumes its volumes
	 * @param endpoint its place in the server's Service network
	 */
	record Created(Replica replica, PodVolumes volumes, ServiceNetwork.Registration endpoint) {

	}

}
