package dev.kubereconciler.test;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a cluster's DNS and kube-proxy that the API server needs to call webhooks
 * given by a Service: {@code <service>.<namespace>.svc[.cluster.local]:<port>} routed to
 * a ready pod that the Service selects, on the port its {@code targetPort} names.
 *
 * <p>
 * The API server process of a {@link KubernetesTestServer} is started with
 * {@code HTTPS_PROXY} naming this network: its webhook client (client-go's transport)
 * then opens each connection to a Service name with an HTTP {@code CONNECT}, which this
 * network answers by reading the Service from the API server, choosing a ready pod
 * round-robin among the {@linkplain #addPod pods added} and tunnelling the bytes to it,
 * so that TLS is between the API server and the pod. Loopback addresses (etcd, the API
 * server itself) are never proxied. A Service with no ready pod is answered with
 * {@code 503} and the reason, which the API server quotes when it refuses the write.
 * There are no ClusterIPs, NodePorts or session affinity, and only the API server's
 * process uses this network.
 *
 * <p>
 * The API server refuses to resolve a {@code service} reference of a webhook
 * configuration or CRD itself; {@link #routeServiceReferences()} writes each as the URL
 * upstream's resolver would make of it, {@code https://<service>.<namespace>.svc:<port>
 * <path>}, the one change made to the applied objects.
 */
public final class ServiceNetwork implements Closeable {

	private static final Logger logger = LoggerFactory.getLogger(ServiceNetwork.class);

	private static final int CONNECT_TIMEOUT_MILLIS = 5000;

	private static final int MAX_REQUEST_HEAD = 8 * 1024;

	private final ServerSocket socket;

	private final ServiceEndpoints endpoints;

	private final Supplier<ApiClient> client;

	private final List<Pod> pods = new CopyOnWriteArrayList<>();

	private final ExecutorService connections = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "service-network");
		thread.setDaemon(true);
		return thread;
	});

	ServiceNetwork(Supplier<ApiClient> client) {
		this.client = client;
		this.endpoints = new ServiceEndpoints(client);
		try {
			this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not open the Service network's proxy port", ex);
		}
		this.connections.execute(this::accept);
	}

	/**
	 * Return the environment that routes a process's HTTPS connections to Service names
	 * through this network: {@code HTTPS_PROXY}, and an empty {@code NO_PROXY} so that an
	 * inherited one cannot exempt {@code .svc} names (Go never proxies loopback
	 * addresses).
	 * @return the variables
	 */
	Map<String, String> proxyEnvironment() {
		String proxy = "http://" + this.socket.getInetAddress().getHostAddress() + ":" + this.socket.getLocalPort();
		return Map.of("HTTPS_PROXY", proxy, "https_proxy", proxy, "NO_PROXY", "", "no_proxy", "");
	}

	/**
	 * Add a pod that Services may route to, as its endpoints controller would once the
	 * pod exists; the pod receives connections only while it is ready.
	 * @param namespace the pod's namespace
	 * @param name the pod's name
	 * @param ip the pod's IP, which its servers bind
	 * @param labels the pod's labels, which a Service's selector matches
	 * @param ports the pod's container ports by name, for a {@code targetPort} given by
	 * name
	 * @param ready whether the pod is ready now, asked at each connection
	 * @return the registration, which removes the pod when closed
	 */
	public Registration addPod(String namespace, String name, String ip, Map<String, String> labels,
			Map<String, Integer> ports, BooleanSupplier ready) {
		Pod pod = new Pod(namespace, name, ip, Map.copyOf(labels), Map.copyOf(ports), ready);
		this.pods.add(pod);
		return () -> this.pods.remove(pod);
	}

	/**
	 * Write every {@code service} reference of the validating and mutating webhook
	 * configurations and of the CRDs' conversion webhooks as the URL upstream's service
	 * resolver makes of it, {@code https://<name>.<namespace>.svc:<port><path>}, which
	 * this network routes: the test API server cannot resolve a service reference itself.
	 * The {@code caBundle}, the annotations (such as cert-manager's
	 * {@code inject-ca-from}) and everything else stay as applied, and the TLS server
	 * name the API server checks is the one it checks for the service reference.
	 * @return the objects changed, as {@code <resource>/<name>}
	 */
	public List<String> routeServiceReferences() {
		return new ServiceReferences(this.client.get()).rewriteAll();
	}

	/**
	 * Return the address of this network's proxy.
	 * @return the address, on loopback
	 */
	public InetSocketAddress proxyAddress() {
		return new InetSocketAddress(this.socket.getInetAddress(), this.socket.getLocalPort());
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// closing, nothing to do
		}
		this.connections.shutdownNow();
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket client = this.socket.accept();
				this.connections.execute(() -> connect(client));
			}
			catch (IOException ex) {
				if (!this.socket.isClosed()) {
					logger.warn("The Service network stopped accepting connections", ex);
				}
				return;
			}
		}
	}

	private void connect(Socket client) {
		try (client) {
			String target = readConnectTarget(client.getInputStream());
			ServiceEndpoints.Route route = (target != null) ? this.endpoints.route(target, this.pods)
					: ServiceEndpoints.Route.refused("the Service network takes only CONNECT requests");
			Socket pod = new Socket();
			try (pod) {
				String refusal = open(pod, target, route);
				OutputStream toClient = client.getOutputStream();
				if (refusal != null) {
					logger.info("Service network refused CONNECT {}: {}", target, refusal);
					toClient.write(("HTTP/1.1 503 " + refusal.replaceAll("[\\r\\n]", " ") + "\r\n"
							+ "Content-Length: 0\r\nConnection: close\r\n\r\n")
						.getBytes(StandardCharsets.UTF_8));
					toClient.flush();
					return;
				}
				logger.debug("Service network routes {} to {} at {}", target, route.pod(), route.endpoint());
				toClient.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				toClient.flush();
				this.connections.execute(() -> pipe(client, pod));
				pipe(pod, client);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Service network connection ended", ex);
		}
	}

	// connects to the route's pod, or tells why not
	private static @Nullable String open(Socket pod, @Nullable String target, ServiceEndpoints.Route route) {
		InetSocketAddress endpoint = route.endpoint();
		if (endpoint == null) {
			return route.reason();
		}
		try {
			pod.connect(endpoint, CONNECT_TIMEOUT_MILLIS);
			return null;
		}
		catch (IOException ex) {
			return target + ": the connection to " + route.pod() + " at " + endpoint + " failed (" + ex.getMessage()
					+ ")";
		}
	}

	// the bytes of one direction, until its end of stream, which is passed on
	private static void pipe(Socket from, Socket to) {
		try {
			from.getInputStream().transferTo(to.getOutputStream());
			to.shutdownOutput();
		}
		catch (SocketException ex) {
			// the other side closed: the tunnel is over
		}
		catch (IOException ex) {
			logger.debug("Service network tunnel ended", ex);
		}
	}

	// "CONNECT host:port HTTP/1.1" and headers; the tunnel's bytes start after them, so
	// nothing past the blank line is read
	private static @Nullable String readConnectTarget(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		while (matched < 4) {
			int read = in.read();
			if (read < 0 || head.size() > MAX_REQUEST_HEAD) {
				return null;
			}
			head.write(read);
			matched = (read == "\r\n\r\n".charAt(matched)) ? matched + 1 : ((read == '\r') ? 1 : 0);
		}
		String[] requestLine = head.toString(StandardCharsets.US_ASCII).split("\r\n", 2)[0].split(" ");
		return (requestLine.length == 3 && requestLine[0].equals("CONNECT")) ? requestLine[1] : null;
	}

	/**
	 * A pod added to the network, removed when closed.
	 */
	public interface Registration extends AutoCloseable {

		/**
		 * Remove the pod from the network; connections open to it stay open.
		 */
		@Override
		void close();

	}

	record Pod(String namespace, String name, String ip, Map<String, String> labels, Map<String, Integer> ports,
			BooleanSupplier ready) {

		@Override
		public String toString() {
			return "pod " + this.namespace + "/" + this.name;
		}

	}

}
