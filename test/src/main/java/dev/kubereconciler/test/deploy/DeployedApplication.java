package dev.kubereconciler.test.deploy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

import io.kubernetes.client.openapi.models.V1Deployment;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.ServiceNetwork;
import dev.kubereconciler.test.TestNamespace;

/**
 * An application's Deployment, as its manifests declare it, run against a
 * {@link KubernetesTestServer} the way a kubelet would run its pods, with each replica a
 * local JVM on a loopback address of its own.
 *
 * <pre class="code">
 * try (DeployedApplication application = DeployedApplication.builder(server, namespace)
 * 	.manifests(Path.of("target/kubernetes"))
 * 	.mainClass(MyApplication.class)
 * 	.start()) {
 * 	Replica replica = application.replicas().get(0);
 * }
 * </pre>
 *
 * <p>
 * {@link Builder#start()} returns once every replica is ready; {@link #close()} stops
 * them all as the kubelet stops a deleted pod. Each replica joins the server's
 * {@linkplain KubernetesTestServer#serviceNetwork() Service network}, so that the API
 * server's calls to a webhook given by a Service that selects the pods reach a ready
 * replica; starting also {@linkplain ServiceNetwork#routeServiceReferences() writes the
 * service references} of the webhook configurations and CRDs applied so far as the URLs
 * the network routes.
 */
public final class DeployedApplication implements AutoCloseable {

	private final V1Deployment deployment;

	private final List<Replica> replicas;

	private final Kubelet kubelet;

	private final List<ServiceNetwork.Registration> endpoints;

	private boolean closed;

	DeployedApplication(V1Deployment deployment, List<Replica> replicas, List<PodVolumes> volumes,
			List<ServiceNetwork.Registration> endpoints, Clock clock) {
		this.deployment = deployment;
		this.replicas = List.copyOf(replicas);
		this.endpoints = List.copyOf(endpoints);
		this.kubelet = new Kubelet(name(), replicas, volumes, clock);
	}

	/**
	 * Start building a deployed application against the given server, in the given
	 * namespace, whatever namespace the manifests name.
	 * @param server the API server the application talks to, and whose Secrets,
	 * ConfigMaps and ServiceAccounts the replicas get
	 * @param namespace the namespace of the pods
	 * @return a builder
	 */
	public static Builder builder(KubernetesTestServer server, TestNamespace namespace) {
		return new Builder(server, namespace.name());
	}

	/**
	 * Start building a deployed application against the given server, in the given
	 * namespace, whatever namespace the manifests name.
	 * @param server the API server
	 * @param namespace the namespace of the pods
	 * @return a builder
	 */
	public static Builder builder(KubernetesTestServer server, String namespace) {
		return new Builder(server, namespace);
	}

	/**
	 * Return the Deployment as read from the manifests.
	 * @return the Deployment
	 */
	public V1Deployment deployment() {
		return this.deployment;
	}

	/**
	 * Return the replicas, in the order they were started.
	 * @return the replicas
	 */
	public List<Replica> replicas() {
		return this.replicas;
	}

	/**
	 * Return the replicas that are ready now.
	 * @return the ready replicas
	 */
	public List<Replica> readyReplicas() {
		return this.replicas.stream().filter(Replica::isReady).toList();
	}

	/**
	 * Wait until every replica that is not stopped is ready.
	 * @param timeout how long to wait at most
	 * @throws IllegalStateException if a replica exits or stays unready, with its probes'
	 * state and the end of its log in the message
	 */
	public void awaitReady(Duration timeout) {
		try {
			Awaitility.await("every replica of " + name() + " ready")
				.atMost(timeout)
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(50))
				.failFast(() -> this.replicas.stream().anyMatch((replica) -> replica.failedStart() != null))
				.until(() -> this.replicas.stream().allMatch(Replica::isReady));
		}
		catch (ConditionTimeoutException | TerminalFailureException ex) {
			throw new IllegalStateException(name() + " is not ready after " + timeout.toSeconds() + " s:"
					+ this.replicas.stream().map(this::explain).collect(Collectors.joining()), ex);
		}
	}

	/**
	 * Stop every replica at once, each as the kubelet stops a deleted pod (SIGTERM, then
	 * SIGKILL after the grace period), and wait until all have ended.
	 * @return how each replica ended, in the order of {@link #replicas()}
	 */
	public synchronized List<Termination> stop() {
		this.closed = true;
		List<Termination> terminations = this.kubelet.stop();
		this.endpoints.forEach(ServiceNetwork.Registration::close);
		return terminations;
	}

	/**
	 * {@linkplain #stop() Stop} every replica, unless already stopped.
	 */
	@Override
	public void close() {
		if (!this.closed) {
			stop();
		}
	}

	void startReplicas() {
		this.kubelet.start();
	}

	private String explain(Replica replica) {
		String failed = replica.failedStart();
		return "\n- " + replica + ": " + ((failed != null) ? failed : (replica.isReady() ? "ready" : "not ready"))
				+ "; " + replica.probeState() + "\n  last lines of " + replica.logFile() + ":\n"
				+ replica.logTail().indent(4);
	}

	private String name() {
		return "Deployment " + this.deployment.getMetadata().getName();
	}

	/**
	 * Builds and starts a {@link DeployedApplication}.
	 */
	public static final class Builder {

		private final KubernetesTestServer server;

		private final String namespace;

		private Path manifests = Path.of("target", "kubernetes");

		private @Nullable String deploymentName;

		private @Nullable String containerName;

		private @Nullable String mainClass;

		private String classPath = System.getProperty("java.class.path");

		private @Nullable Integer replicas;

		private @Nullable Duration probePeriod;

		private Duration readyTimeout = Duration.ofSeconds(60);

		private Path directory = Path.of("target", "deployed");

		private Clock clock = Clock.systemUTC();

		private @Nullable BiFunction<String, String, String> kubeconfigs;

		Builder(KubernetesTestServer server, String namespace) {
			this.server = Objects.requireNonNull(server, "server must not be null");
			this.namespace = Objects.requireNonNull(namespace, "namespace must not be null");
		}

		/**
		 * Read the Deployment from this folder (through its {@code kustomization.yaml}'s
		 * resources when it has one, else its YAML files) or file.
		 * @param manifests the folder or file; {@code target/kubernetes} by default,
		 * where the {@code manifests} goal writes
		 * @return this builder
		 */
		public Builder manifests(Path manifests) {
			this.manifests = manifests;
			return this;
		}

		/**
		 * Name the Deployment to run when the manifests hold several.
		 * @param deploymentName the Deployment's name
		 * @return this builder
		 */
		public Builder deploymentName(String deploymentName) {
			this.deploymentName = deploymentName;
			return this;
		}

		/**
		 * Name the container to run when the pod template has several; the others are not
		 * run.
		 * @param containerName the container's name; the first container by default
		 * @return this builder
		 */
		public Builder container(String containerName) {
			this.containerName = containerName;
			return this;
		}

		/**
		 * Set the main class that the container's image would run.
		 * @param mainClass the main class
		 * @return this builder
		 */
		public Builder mainClass(Class<?> mainClass) {
			return mainClass(mainClass.getName());
		}

		/**
		 * Set the main class that the container's image would run.
		 * @param mainClass the main class's binary name
		 * @return this builder
		 */
		public Builder mainClass(String mainClass) {
			this.mainClass = mainClass;
			return this;
		}

		/**
		 * Set the class path of the replicas' JVMs.
		 * @param classPath the class path; the test JVM's own ({@code java.class.path})
		 * by default
		 * @return this builder
		 */
		public Builder classPath(String classPath) {
			this.classPath = classPath;
			return this;
		}

		/**
		 * Run this many replicas instead of the Deployment's {@code replicas}.
		 * @param replicas the number of replicas, at least 1
		 * @return this builder
		 */
		public Builder replicas(int replicas) {
			if (replicas < 1) {
				throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
			}
			this.replicas = replicas;
			return this;
		}

		/**
		 * Probe this often instead of every probe's {@code periodSeconds}, so that a test
		 * sees readiness and failed probes sooner; thresholds and initial delays stay as
		 * declared.
		 * @param probePeriod the period of every probe
		 * @return this builder
		 */
		public Builder probePeriod(Duration probePeriod) {
			this.probePeriod = probePeriod;
			return this;
		}

		/**
		 * Set how long {@link #start()} waits for every replica to be ready.
		 * @param readyTimeout the timeout; 60 s by default
		 * @return this builder
		 */
		public Builder readyTimeout(Duration readyTimeout) {
			this.readyTimeout = readyTimeout;
			return this;
		}

		/**
		 * Set the folder under which each replica gets a folder of its own, named by its
		 * pod, with its volumes, kubeconfig and log.
		 * @param directory the folder; {@code target/deployed} by default
		 * @return this builder
		 */
		public Builder directory(Path directory) {
			this.directory = directory;
			return this;
		}

		/**
		 * Set the clock that times probes, restarts and volume timestamps.
		 * @param clock the clock; the system's by default
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Give each replica the kubeconfig this function returns instead of the one the
		 * runner wrote, for example to reach the API server through a
		 * {@link dev.kubereconciler.test.fault.FaultProxy} of its own:
		 * {@code (pod, kubeconfig) -> proxies.get(pod).kubeconfig(kubeconfig)}.
		 * @param kubeconfigs the function, given the pod's name and the kubeconfig of the
		 * pod's ServiceAccount user
		 * @return this builder
		 */
		public Builder kubeconfig(BiFunction<String, String, String> kubeconfigs) {
			this.kubeconfigs = kubeconfigs;
			return this;
		}

		/**
		 * Start the replicas and wait until every one is ready.
		 * @return the running application, which the caller closes
		 * @throws IllegalArgumentException if the manifests cannot be run, naming what
		 * @throws IllegalStateException if a replica does not become ready, with the end
		 * of its log
		 */
		public DeployedApplication start() {
			DeployedApplication application = startWithoutWaiting();
			try {
				application.awaitReady(this.readyTimeout);
				return application;
			}
			catch (RuntimeException ex) {
				application.close();
				throw ex;
			}
		}

		/**
		 * Start the replicas and return at once, for a test that watches them become
		 * ready or fail.
		 * @return the running application, which the caller closes
		 */
		public DeployedApplication startWithoutWaiting() {
			if (this.mainClass == null) {
				throw new IllegalStateException("Set the application's main class with DeployedApplication.Builder"
						+ ".mainClass: it stands for the container's image");
			}
			V1Deployment deployment = DeploymentManifests.read(this.manifests, this.deploymentName);
			ReplicaFactory factory = new ReplicaFactory(this.server, this.namespace, deployment, this.containerName,
					this.mainClass, this.classPath, this.probePeriod, this.directory, this.clock, this.kubeconfigs);
			int count = (this.replicas != null) ? this.replicas
					: Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
			List<Replica> replicas = new ArrayList<>();
			List<PodVolumes> volumes = new ArrayList<>();
			List<ServiceNetwork.Registration> endpoints = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				ReplicaFactory.Created created = factory.create();
				replicas.add(created.replica());
				volumes.add(created.volumes());
				endpoints.add(created.endpoint());
			}
			// the webhook configurations and CRDs applied so far reach their Services
			// through the server's Service network
			this.server.serviceNetwork().routeServiceReferences();
			DeployedApplication application = new DeployedApplication(deployment, replicas, volumes, endpoints,
					this.clock);
			application.startReplicas();
			return application;
		}

	}

}
