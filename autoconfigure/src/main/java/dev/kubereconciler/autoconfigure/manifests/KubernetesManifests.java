package dev.kubereconciler.autoconfigure.manifests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1HTTPGetAction;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSecurityContext;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.LeaderElectionProperties;
import dev.kubereconciler.autoconfigure.LeaseTimingProperties;
import dev.kubereconciler.autoconfigure.ShardingProperties;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.webhook.Webhooks;
import dev.kubereconciler.webhook.conversion.ConvertedResource;

/**
 * The Kubernetes manifests of the application, generated from its properties and
 * controllers: the CRDs of the custom resources it watches, owns or maps, ServiceAccount,
 * RBAC, a Deployment with probes on Actuator's health groups, a Service for the
 * management port, and, for an application that serves webhooks, their configurations,
 * Service and certificate; apart from them, in {@code monitoring/}, alert rules and a
 * Grafana dashboard, and in {@code members/}, for a fleet, the ServiceAccount and RBAC of
 * each member cluster.
 */
public class KubernetesManifests {

	/**
	 * Time left after the shutdown timeout for the web server and the context to close.
	 */
	static final Duration SHUTDOWN_MARGIN = Duration.ofSeconds(15);

	private static final int STARTUP_PERIOD_SECONDS = 2;

	private static final int STARTUP_FAILURE_THRESHOLD = 150;

	private final Environment environment;

	private final KubeReconcilerProperties properties;

	private final DeploymentProperties deployment;

	private final KubeReconcilerRbac rbac;

	private final List<Class<?>> customResources;

	private final Webhooks webhooks;

	private final WebhookProperties webhookProperties;

	/**
	 * Create the manifests.
	 * @param environment the application's environment
	 * @param properties the kube-reconciler properties
	 * @param deployment the deployment properties
	 * @param rbac the RBAC policy
	 * @param customResources the model classes whose CRDs to write, annotated with
	 * {@code @ResourceCoordinates}
	 */
	public KubernetesManifests(Environment environment, KubeReconcilerProperties properties,
			DeploymentProperties deployment, KubeReconcilerRbac rbac, List<Class<?>> customResources) {
		this(environment, properties, deployment, rbac, customResources, Webhooks.builder().build(),
				new WebhookProperties());
	}

	/**
	 * Create the manifests of an application that serves webhooks.
	 * @param environment the application's environment
	 * @param properties the kube-reconciler properties
	 * @param deployment the deployment properties
	 * @param rbac the RBAC policy
	 * @param customResources the model classes whose CRDs to write, annotated with
	 * {@code @ResourceCoordinates}
	 * @param webhooks the webhooks the application serves
	 * @param webhookProperties the webhook properties
	 */
	public KubernetesManifests(Environment environment, KubeReconcilerProperties properties,
			DeploymentProperties deployment, KubeReconcilerRbac rbac, List<Class<?>> customResources, Webhooks webhooks,
			WebhookProperties webhookProperties) {
		this.environment = environment;
		this.properties = properties;
		this.deployment = deployment;
		this.rbac = rbac;
		this.customResources = List.copyOf(customResources);
		this.webhooks = webhooks;
		this.webhookProperties = webhookProperties;
	}

	/**
	 * Return the manifests by file name.
	 * @return the YAML of each file, in the order to apply them
	 */
	public Map<String, String> files() {
		String name = KubeReconcilerRbacAutoConfiguration.name(this.deployment, this.environment);
		String namespace = this.deployment.getNamespace();
		// the CRDs first: a custom resource cannot be applied before its CRD
		Map<String, String> files = new LinkedHashMap<>(crds(name, namespace));
		files.put("serviceaccount.yaml", ManifestYaml
			.dump(new V1ServiceAccount().apiVersion("v1").kind("ServiceAccount").metadata(metadata(name, namespace))));
		files.put("rbac.yaml",
				ManifestYaml.withoutEmpties(RbacManifests.yaml(this.rbac.policy(namespace), name, namespace)));
		files.put("deployment.yaml", ManifestYaml.dump(deployment(name, namespace)));
		files.put("service.yaml", ManifestYaml.dump(service(name, namespace)));
		if (!this.webhooks.isEmpty()) {
			files.putAll(webhookManifests(name, namespace).files());
		}
		StringBuilder kustomization = new StringBuilder(
				"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n");
		files.keySet().forEach((file) -> kustomization.append("- ").append(file).append('\n'));
		files.put("kustomization.yaml", kustomization.toString());
		// a folder and a kustomization of their own: the PrometheusRule needs the
		// Prometheus Operator's CRD, which a cluster may not have
		files.putAll(new MonitoringManifests(name, namespace).files());
		// a folder and a kustomization of their own, applied to each member cluster of
		// the fleet: its ServiceAccount, whose token the member's kubeconfig carries,
		// and the fleet controllers' rules
		if (!this.rbac.memberPolicy().roles().isEmpty()) {
			files.put("members/serviceaccount.yaml", files.get("serviceaccount.yaml"));
			files.put("members/rbac.yaml", ManifestYaml.withoutEmpties(this.rbac.memberYaml(namespace)));
			files.put("members/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
					+ "resources:\n- serviceaccount.yaml\n- rbac.yaml\n");
		}
		return files;
	}

	/**
	 * Write the manifests into a folder.
	 * @param directory the folder, created if missing
	 * @return the files written
	 * @throws IOException if a file cannot be written
	 */
	public List<Path> write(Path directory) throws IOException {
		Files.createDirectories(directory);
		List<Path> written = new ArrayList<>();
		for (Map.Entry<String, String> file : files().entrySet()) {
			Path path = directory.resolve(file.getKey());
			Files.createDirectories(path.getParent());
			written.add(Files.writeString(path, file.getValue()));
		}
		return written;
	}

	V1Deployment deployment(String name, String namespace) {
		String image = (this.deployment.getImage() != null) ? this.deployment.getImage() : name + ":latest";
		int port = managementPort();
		String health = this.environment.getProperty("management.endpoints.web.base-path", "/actuator") + "/health";
		long grace = this.properties.getShutdownTimeout().plus(SHUTDOWN_MARGIN).toSeconds();
		V1Container container = new V1Container().name(name)
			.image(image)
			.ports(List.of(new V1ContainerPort().name("management").containerPort(port)))
			.env(environmentVariables())
			// a JVM on a throttled CPU can take longer to start than liveness allows (3 x
			// 10 s): liveness and readiness wait for the startup probe, which allows 5
			// min
			.startupProbe(probe(health + "/liveness", STARTUP_PERIOD_SECONDS, STARTUP_FAILURE_THRESHOLD))
			// liveness asks only whether the JVM's own state is broken; the API server is
			// no part of it
			.livenessProbe(probe(health + "/liveness", 3))
			.readinessProbe(probe(health + "/readiness", 1));
		V1PodSpec pod = new V1PodSpec().serviceAccountName(name)
			.terminationGracePeriodSeconds(grace)
			.securityContext(new V1PodSecurityContext().runAsNonRoot(true))
			.containers(List.of(container));
		if (!this.webhooks.isEmpty()) {
			webhookManifests(name, namespace).addTo(container, pod);
		}
		return new V1Deployment().apiVersion("apps/v1")
			.kind("Deployment")
			.metadata(metadata(name, namespace))
			.spec(new V1DeploymentSpec().replicas(this.deployment.getReplicas())
				.selector(new V1LabelSelector().matchLabels(labels(name)))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(labels(name))).spec(pod)));
	}

	// every version of a converted resource, whether a controller names it or not: a
	// CRD applied without a version would drop it from the cluster
	private Map<String, String> crds(String name, String namespace) {
		if (this.webhooks.convertedResources().isEmpty()) {
			return CustomResourceManifests.crds(this.customResources);
		}
		Set<Class<?>> models = new LinkedHashSet<>(this.customResources);
		Map<String, WebhookClientConfig> conversions = new LinkedHashMap<>();
		WebhookManifests webhookManifests = webhookManifests(name, namespace);
		for (ConvertedResource resource : this.webhooks.convertedResources()) {
			models.add(resource.hub().apiType());
			resource.spokes().forEach((spoke) -> models.add(spoke.apiType()));
			conversions.put(resource.crdName(), webhookManifests.clientConfig().withPath(Webhooks.CONVERSION_PATH));
		}
		Map<String, String> files = new LinkedHashMap<>();
		CustomResourceManifests.crds(List.copyOf(models), conversions)
			.forEach((file, yaml) -> files.put(file,
					conversions.containsKey(crdName(file)) ? webhookManifests.withCaInjection(yaml) : yaml));
		return files;
	}

	private static String crdName(String file) {
		String base = file.substring(file.lastIndexOf('/') + 1);
		return base.endsWith(".yaml") ? base.substring(0, base.length() - ".yaml".length()) : base;
	}

	private WebhookManifests webhookManifests(String name, String namespace) {
		return new WebhookManifests(this.webhooks, this.webhookProperties, name, namespace);
	}

	// generator arguments reach the pod only through these: the packaged
	// application.yaml does not have them
	private List<V1EnvVar> environmentVariables() {
		List<V1EnvVar> env = new ArrayList<>();
		env.add(EnvironmentVariables.of("management.endpoint.health.probes.enabled", true));
		ports(env);
		LeaderElectionProperties election = this.properties.getLeaderElection();
		String leaderElection = "kube-reconciler.leader-election.";
		env.add(EnvironmentVariables.of(leaderElection + "enabled", election.isEnabled()));
		if (election.isEnabled()) {
			addIfSet(env, leaderElection + "lease-name", election.getLeaseName());
			addIfSet(env, leaderElection + "lease-namespace", election.getLeaseNamespace());
			addTimings(env, leaderElection, election);
			env.add(EnvironmentVariables.of(leaderElection + "warmup", election.isWarmup()));
		}
		ShardingProperties sharding = this.properties.getSharding();
		if (sharding.isEnabled()) {
			String prefix = "kube-reconciler.sharding.";
			env.add(EnvironmentVariables.of(prefix + "enabled", true));
			env.add(EnvironmentVariables.of(prefix + "partitions", sharding.getPartitions()));
			addIfSet(env, prefix + "lease-prefix", sharding.getLeasePrefix());
			addIfSet(env, prefix + "lease-namespace", sharding.getLeaseNamespace());
			addTimings(env, prefix, sharding);
		}
		env.add(EnvironmentVariables.of("kube-reconciler.shutdown-timeout", this.properties.getShutdownTimeout()));
		// the JVM reads it before the application's own arguments exist: the way to pass
		// flags such as -XX:AOTCache to an image whose entrypoint is fixed
		String jvmOptions = this.deployment.getJvmOptions();
		if (jvmOptions != null && !jvmOptions.isBlank()) {
			env.add(new V1EnvVar().name("JAVA_TOOL_OPTIONS").value(jvmOptions.strip()));
		}
		return env;
	}

	// the probes and the Service target the port the generator was told: the pod must
	// listen on it too
	private void ports(List<V1EnvVar> env) {
		for (String port : List.of("server.port", "management.server.port")) {
			String value = this.environment.getProperty(port);
			if (value != null) {
				env.add(EnvironmentVariables.of(port, value));
			}
		}
	}

	private static void addTimings(List<V1EnvVar> env, String prefix, LeaseTimingProperties timing) {
		env.add(EnvironmentVariables.of(prefix + "lease-duration", timing.getLeaseDuration()));
		env.add(EnvironmentVariables.of(prefix + "renew-deadline", timing.getRenewDeadline()));
		env.add(EnvironmentVariables.of(prefix + "retry-period", timing.getRetryPeriod()));
	}

	private static void addIfSet(List<V1EnvVar> env, String property, @Nullable String value) {
		if (value != null) {
			env.add(EnvironmentVariables.of(property, value));
		}
	}

	private V1Service service(String name, String namespace) {
		int port = managementPort();
		return new V1Service().apiVersion("v1")
			.kind("Service")
			.metadata(metadata(name, namespace))
			.spec(new V1ServiceSpec().selector(labels(name))
				.ports(List
					.of(new V1ServicePort().name("management").port(port).targetPort(new IntOrString("management")))));
	}

	int managementPort() {
		return this.environment.getProperty("management.server.port", Integer.class,
				this.environment.getProperty("server.port", Integer.class, 8080));
	}

	private static V1Probe probe(String path, int failureThreshold) {
		return probe(path, 10, failureThreshold);
	}

	private static V1Probe probe(String path, int periodSeconds, int failureThreshold) {
		return new V1Probe().httpGet(new V1HTTPGetAction().path(path).port(new IntOrString("management")))
			.periodSeconds(periodSeconds)
			.failureThreshold(failureThreshold);
	}

	private static V1ObjectMeta metadata(String name, String namespace) {
		return new V1ObjectMeta().name(name).namespace(namespace).labels(labels(name));
	}

	private static Map<String, String> labels(String name) {
		return Map.of("app.kubernetes.io/name", name);
	}

}
