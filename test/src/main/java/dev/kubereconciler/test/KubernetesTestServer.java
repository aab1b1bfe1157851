package dev.kubereconciler.test;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real etcd and kube-apiserver on loopback for integration tests, started with the
 * flags envtest passes, so that an upstream kube-apiserver works as well as the project's
 * test one.
 *
 * <p>
 * {@link #shared()} is the one server of the JVM, started on first use and stopped when
 * the JVM exits. {@link #start(KubernetesTestAssets)} starts a separate server that the
 * caller {@linkplain #close() closes}. Each server has its own temporary folder holding
 * the certificates, etcd's data, the {@linkplain #kubeconfig() kubeconfig} and the logs
 * of both processes ({@code etcd.log} and {@code kube-apiserver.log}); closing deletes
 * it.
 */
public final class KubernetesTestServer implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(KubernetesTestServer.class);

	private static final Duration ETCD_STARTUP = Duration.ofSeconds(20);

	// longer than the ~20 s after which kube-apiserver gives up on an unreachable etcd,
	// so that a failure quotes the server's own explanation rather than a bare timeout
	private static final Duration API_SERVER_STARTUP = Duration.ofSeconds(45);

	private static final Duration STOP_GRACE = Duration.ofSeconds(5);

	// The JVM-wide instance has to live somewhere static; the holder keeps the lazy start
	// and its outcome behind one lock, as test classes may run on several threads.
	private static final SharedServer SHARED = new SharedServer();

	private final KubernetesTestAssets assets;

	private final ServerLayout layout;

	private final ManagedProcess etcd;

	private final ManagedProcess apiServer;

	private final ServiceNetwork serviceNetwork;

	private final boolean shared;

	private final Thread shutdownHook = new Thread(this::shutdown, "kubernetes-test-server-shutdown");

	private @Nullable OkHttpClient probe;

	private @Nullable ApiClient adminTemplate;

	private boolean stopped;

	private KubernetesTestServer(KubernetesTestAssets assets, ServerLayout layout, boolean shared) {
		this.assets = assets;
		this.layout = layout;
		this.shared = shared;
		String peer = layout.etcdPeerUrl().toString();
		// A single member can never lose its leadership, so short raft timers are safe;
		// they let it elect itself in about 100 ms instead of up to a second.
		this.etcd = new ManagedProcess("etcd",
				List.of(assets.etcd().toString(), "--name=default", "--data-dir=" + layout.etcdData(),
						"--listen-client-urls=" + layout.etcdUrl(), "--advertise-client-urls=" + layout.etcdUrl(),
						"--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
						"--initial-cluster=default=" + peer, "--heartbeat-interval=10", "--election-timeout=100"),
				etcdEnvironment(), layout.log("etcd"));
		this.serviceNetwork = new ServiceNetwork(this::apiClient);
		// envtest's flags: what an upstream kube-apiserver needs, and all the test
		// server needs; the Service network routes its webhook calls to Services
		this.apiServer = new ManagedProcess("kube-apiserver",
				List.of(assets.kubeApiServer().toString(), "--advertise-address=127.0.0.1", "--bind-address=127.0.0.1",
						"--secure-port=" + layout.apiServerUrl().getPort(), "--cert-dir=" + layout.certificates(),
						"--client-ca-file=" + layout.certificate(TestCertificates.CA_CERTIFICATE),
						"--etcd-servers=" + layout.etcdUrl(), "--service-account-issuer=https://kubernetes.default.svc",
						"--service-account-key-file=" + layout.certificate(TestCertificates.SERVICE_ACCOUNT_PUBLIC_KEY),
						"--service-account-signing-key-file="
								+ layout.certificate(TestCertificates.SERVICE_ACCOUNT_KEY),
						"--service-cluster-ip-range=10.0.0.0/24", "--allow-privileged=true",
						"--authorization-mode=RBAC", "--disable-admission-plugins=ServiceAccount",
						"--audit-policy-file=" + layout.auditPolicy(), "--audit-log-path=" + layout.auditLog()),
				this.serviceNetwork.proxyEnvironment(), layout.log("kube-apiserver"));
		// registered before anything runs, so a failed or abandoned start leaves no
		// process behind
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Return the server shared by the whole JVM, starting it from
	 * {@link KubernetesTestAssets#discover()} on first use. It stops when the JVM exits;
	 * {@link #close()} does nothing on it. A failed start is remembered and reported
	 * again to every later caller instead of being retried.
	 * @return the running shared server
	 * @throws MissingKubernetesTestAssetsException if the binaries cannot be found
	 * @throws IllegalStateException if etcd or kube-apiserver does not start
	 */
	public static KubernetesTestServer shared() {
		return SHARED.get();
	}

	/**
	 * Start a separate server from the given binaries. The caller closes it; a JVM
	 * shutdown hook stops it otherwise.
	 * @param assets the etcd and kube-apiserver binaries
	 * @return the running server
	 * @throws IllegalStateException if etcd or kube-apiserver does not start, with the
	 * end of its log in the message
	 */
	public static KubernetesTestServer start(KubernetesTestAssets assets) {
		return start(assets, false);
	}

	private static KubernetesTestServer start(KubernetesTestAssets assets, boolean shared) {
		KubernetesTestServer server = new KubernetesTestServer(assets,
				ServerLayout.create(TestCertificates.ofThisJvm()), shared);
		long started = System.nanoTime();
		try {
			server.etcd.start();
			server.etcd.awaitReady(ETCD_STARTUP, () -> server.answers200(server.etcdUrl() + "/health"));
			long etcdReady = System.nanoTime();
			server.startApiServer();
			logger.info("Test API server ready at {} in {} ms (etcd {} ms), kube-apiserver {}", server.url(),
					TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
					TimeUnit.NANOSECONDS.toMillis(etcdReady - started), assets.kubeApiServer());
			return server;
		}
		catch (RuntimeException ex) {
			server.destroy();
			throw ex;
		}
	}

	/**
	 * Return a new client for this server, authenticated as a cluster admin, with no read
	 * timeout: client-java's {@code SharedInformerFactory} refuses clients that have one,
	 * and a watch can be silent for minutes.
	 * @return a new client
	 */
	public ApiClient apiClient() {
		// Every test class and test context asks for one: the kubeconfig is read and the
		// TLS set up once, and each client shares that SSL context (so its handshakes
		// resume the session) but has its own connections and dispatcher, as before.
		ApiClient template = adminTemplate();
		OkHttpClient http = template.getHttpClient()
			.newBuilder()
			.connectionPool(new ConnectionPool())
			.dispatcher(new Dispatcher())
			.build();
		return new ApiClient(http).setBasePath(template.getBasePath());
	}

	private synchronized ApiClient adminTemplate() {
		ApiClient template = this.adminTemplate;
		if (template == null) {
			try (Reader reader = Files.newBufferedReader(kubeconfig())) {
				template = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader))
					.setReadTimeout(Duration.ZERO)
					.build();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.adminTemplate = template;
		}
		return template;
	}

	/**
	 * Return a new client for this server authenticated as a user of the caller's
	 * choosing, by a client certificate the server's CA signs, with no read timeout. The
	 * server's RBAC judges its requests by the Roles and ClusterRoles bound to that user
	 * or its groups: a ServiceAccount's identity is
	 * {@code system:serviceaccount:<namespace>:<name>}. Use it to see what the API server
	 * answers an application with only the permissions it declares.
	 * @param user the user name
	 * @param groups the user's groups
	 * @return a new client
	 */
	public ApiClient apiClient(String user, String... groups) {
		try {
			KubeConfig config = KubeConfig
				.loadKubeConfig(new StringReader(this.layout.kubeconfig(user, List.of(groups))));
			return ClientBuilder.kubeconfig(config).setReadTimeout(Duration.ZERO).build();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return a kubeconfig, as YAML, authenticated as a user of the caller's choosing by a
	 * client certificate the server's CA signs, as {@link #apiClient(String, String...)}
	 * is; for a process of its own, such as a replica of a
	 * {@link dev.kubereconciler.test.deploy.DeployedApplication}.
	 * @param user the user name
	 * @param groups the user's groups
	 * @return the kubeconfig
	 */
	public String kubeconfig(String user, String... groups) {
		return this.layout.kubeconfig(user, List.of(groups));
	}

	/**
	 * Return the kubeconfig file for this server, with the certificates embedded, usable
	 * by kubectl and any client library.
	 * @return the kubeconfig file
	 */
	public Path kubeconfig() {
		return this.layout.kubeconfig();
	}

	/**
	 * Return the API server's URL, {@code https://127.0.0.1:<port>}; it stays the same
	 * across {@link #stopApiServer()} and {@link #startApiServer()}.
	 * @return the URL
	 */
	public URI url() {
		return this.layout.apiServerUrl();
	}

	/**
	 * Return etcd's client URL, {@code http://127.0.0.1:<port>}.
	 * @return the URL
	 */
	public URI etcdUrl() {
		return this.layout.etcdUrl();
	}

	/**
	 * Return the events of the API server's audit log so far, oldest first: every request
	 * of every client at {@code Metadata} level ({@code audit.log} in the server's
	 * {@linkplain #directory() folder}), so that a test can judge what a deployed
	 * application sent, as whom, from which address, and what the server answered.
	 * @return the events
	 */
	public List<AuditEvent> auditEvents() {
		List<String> lines;
		try {
			lines = Files.exists(this.layout.auditLog()) ? Files.readAllLines(this.layout.auditLog()) : List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<AuditEvent> events = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			try {
				events.add(AuditEvent.parse(lines.get(i)));
			}
			catch (RuntimeException ex) {
				// the server may be writing the last line as it is read
				if (i < lines.size() - 1) {
					throw ex;
				}
			}
		}
		return events;
	}

	/**
	 * Return the Service network through which the API server reaches the webhooks and
	 * conversion webhooks given by a Service, as a cluster's DNS and kube-proxy route
	 * them to the ready pods added to it.
	 * @return the Service network
	 */
	public ServiceNetwork serviceNetwork() {
		return this.serviceNetwork;
	}

	/**
	 * Return the binaries this server runs.
	 * @return the binaries
	 */
	public KubernetesTestAssets assets() {
		return this.assets;
	}

	/**
	 * Return the temporary folder holding this server's certificates, data, kubeconfig
	 * and logs.
	 * @return the folder
	 */
	public Path directory() {
		return this.layout.directory();
	}

	/**
	 * Tell whether the kube-apiserver process is running.
	 * @return whether it runs
	 */
	public boolean isApiServerRunning() {
		return this.apiServer.isAlive();
	}

	/**
	 * Stop the kube-apiserver process (SIGTERM, then SIGKILL after 5 s) while etcd keeps
	 * running; does nothing if it is stopped.
	 */
	public synchronized void stopApiServer() {
		this.apiServer.stop(STOP_GRACE);
	}

	/**
	 * Kill the kube-apiserver process at once (SIGKILL), as a crash or an evicted pod
	 * would, while etcd keeps running; does nothing if it is stopped.
	 */
	public synchronized void killApiServer() {
		this.apiServer.stop(Duration.ZERO);
	}

	/**
	 * Start the kube-apiserver process again, on the same port with the same
	 * certificates, and wait until {@code /readyz} answers 200; does nothing if it is
	 * running.
	 * @throws IllegalStateException if it does not start, with the end of its log in the
	 * message
	 */
	public synchronized void startApiServer() {
		if (this.stopped) {
			throw new IllegalStateException("This server is closed");
		}
		if (this.apiServer.isAlive()) {
			return;
		}
		this.apiServer.start();
		this.apiServer.awaitReady(API_SERVER_STARTUP, () -> answers200(url() + "/readyz"));
	}

	/**
	 * Stop both processes and delete the server's folder, unless this is the
	 * {@linkplain #shared() shared} server, which stops only when the JVM exits.
	 */
	@Override
	public void close() {
		if (!this.shared) {
			destroy();
		}
	}

	private void destroy() {
		shutdown();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is already shutting down and the hook runs or has run
		}
	}

	private synchronized void shutdown() {
		if (this.stopped) {
			return;
		}
		this.stopped = true;
		// the API server first: without etcd it would keep retrying until its own timeout
		this.apiServer.stop(STOP_GRACE);
		this.etcd.stop(STOP_GRACE);
		this.serviceNetwork.close();
		this.layout.delete();
	}

	private boolean answers200(String url) {
		try (Response response = probe().newCall(new Request.Builder().url(url).build()).execute()) {
			return response.code() == 200;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private synchronized OkHttpClient probe() {
		if (this.probe == null) {
			// the admin client's TLS setup, but a probe must not hang on a
			// half-started server
			this.probe = apiClient().getHttpClient().newBuilder().callTimeout(Duration.ofSeconds(2)).build();
		}
		return this.probe;
	}

	private static Map<String, String> etcdEnvironment() {
		String arch = System.getProperty("os.arch");
		if (arch.equals("amd64") || arch.equals("x86_64")) {
			return Map.of();
		}
		// etcd 3.4 refuses to start on other architectures unless told they are fine
		return Map.of("ETCD_UNSUPPORTED_ARCH", arch.equals("aarch64") ? "arm64" : arch);
	}

	private static final class SharedServer {

		private @Nullable KubernetesTestServer server;

		private @Nullable RuntimeException failure;

		synchronized KubernetesTestServer get() {
			if (this.failure != null) {
				throw this.failure;
			}
			if (this.server == null) {
				try {
					this.server = start(KubernetesTestAssets.discover(), true);
				}
				catch (RuntimeException ex) {
					this.failure = ex;
					throw ex;
				}
			}
			return this.server;
		}

	}

}
