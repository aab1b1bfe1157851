package dev.kubereconciler.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where one test server keeps its files and which loopback ports it listens on: a
 * temporary folder holding the certificates, the kubeconfig, etcd's data and a log per
 * process.
 */
final class ServerLayout {

	private final Path directory;

	private final URI etcdUrl;

	private final URI etcdPeerUrl;

	private final URI apiServerUrl;

	private final TestCertificates certificates;

	private ServerLayout(Path directory, TestCertificates certificates) throws IOException {
		this.directory = directory;
		this.certificates = certificates;
		int[] ports = freeLoopbackPorts(3);
		this.etcdUrl = URI.create("http://127.0.0.1:" + ports[0]);
		this.etcdPeerUrl = URI.create("http://127.0.0.1:" + ports[1]);
		this.apiServerUrl = URI.create("https://127.0.0.1:" + ports[2]);
		certificates.writeTo(Files.createDirectories(certificates()));
		Files.writeString(kubeconfig(), certificates.kubeconfig(this.apiServerUrl), StandardCharsets.UTF_8);
		// every request at Metadata level: who, from where, what, and the answer's code
		Files.writeString(auditPolicy(), """
				apiVersion: audit.k8s.io/v1
				kind: Policy
				omitStages: [RequestReceived]
				rules:
				- level: Metadata
				""", StandardCharsets.UTF_8);
	}

	/**
	 * Make a fresh temporary folder with the certificates and a kubeconfig in it, and
	 * choose free ports.
	 * @param certificates the key material to write
	 * @return the layout
	 */
	static ServerLayout create(TestCertificates certificates) {
		Path directory;
		try {
			directory = Files.createTempDirectory("kube-reconciler-test-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create a folder for the Kubernetes test server", ex);
		}
		try {
			return new ServerLayout(directory, certificates);
		}
		catch (IOException ex) {
			delete(directory);
			throw new UncheckedIOException("Could not prepare " + directory + " for the Kubernetes test server", ex);
		}
		catch (RuntimeException ex) {
			delete(directory);
			throw ex;
		}
	}

	Path directory() {
		return this.directory;
	}

	/**
	 * Return the API server's {@code --cert-dir}, which also holds the CA, the client
	 * certificate and the service-account keys.
	 * @return the folder
	 */
	Path certificates() {
		return this.directory.resolve("certs");
	}

	Path certificate(String name) {
		return certificates().resolve(name);
	}

	Path kubeconfig() {
		return this.directory.resolve("kubeconfig");
	}

	/**
	 * Return a kubeconfig, as YAML, for a user that the CA vouches for.
	 * @param user the user name
	 * @param groups the user's groups
	 * @return the kubeconfig
	 */
	String kubeconfig(String user, List<String> groups) {
		return this.certificates.kubeconfig(this.apiServerUrl, user, groups);
	}

	Path auditPolicy() {
		return this.directory.resolve("audit-policy.yaml");
	}

	Path auditLog() {
		return this.directory.resolve("audit.log");
	}

	Path etcdData() {
		return this.directory.resolve("etcd-data");
	}

	Path log(String process) {
		return this.directory.resolve(process + ".log");
	}

	URI etcdUrl() {
		return this.etcdUrl;
	}

	URI etcdPeerUrl() {
		return this.etcdPeerUrl;
	}

	URI apiServerUrl() {
		return this.apiServerUrl;
	}

	/**
	 * Delete the folder and everything in it.
	 */
	void delete() {
		delete(this.directory);
	}

	private static void delete(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// a leftover temporary folder is not worth failing a test run for
		}
	}

	// Holding all sockets open until every port is chosen keeps the ports distinct.
	private static int[] freeLoopbackPorts(int count) throws IOException {
		List<ServerSocket> sockets = new ArrayList<>();
		try {
			for (int i = 0; i < count; i++) {
				sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
			}
			return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
		}
		finally {
			for (ServerSocket socket : sockets) {
				socket.close();
			}
		}
	}

}
