package dev.kubereconciler.test.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.kubereconciler.time.Sleeper;

/**
 * A TCP proxy on loopback between an application and the API server that injects the
 * faults a real network makes: latency and jitter, a bandwidth cap, connection resets and
 * black holes, each switched on and off from a test.
 *
 * <p>
 * TLS passes through untouched: the application still verifies the API server's
 * certificate and authenticates to it, so its kubeconfig is the server's with the proxy's
 * address, which {@link #kubeconfig(String)} writes. The API server's certificate must
 * name the loopback address, as the test server's does.
 *
 * <p>
 * The proxy cannot read TLS, and client-java multiplexes watches and requests over one
 * HTTP/2 connection, so it cannot tell a watch from a request: it resets all connections
 * ({@link #resetAll()}) or those open longer than a given age
 * ({@link #resetOlderThan(Duration)}), which are the watches' when the application opens
 * one connection per watch.
 */
public final class FaultProxy implements AutoCloseable {

	private static final Pattern SERVER_LINE = Pattern.compile("(?m)^(\\s*server:\\s*)(\\S+)\\s*$");

	private final InetSocketAddress upstream;

	private final Faults faults;

	private final ServerSocket listener;

	private final ThreadFactory threads;

	private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicInteger accepted = new AtomicInteger();

	private volatile boolean closed;

	private FaultProxy(InetSocketAddress upstream, Sleeper sleeper, RandomGenerator random) throws IOException {
		this.upstream = upstream;
		this.faults = new Faults(sleeper, random);
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		AtomicInteger count = new AtomicInteger();
		this.threads = (runnable) -> {
			Thread thread = new Thread(runnable, "fault-proxy-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
		Thread acceptor = this.threads.newThread(this::accept);
		acceptor.start();
	}

	/**
	 * Start a proxy to the server at the given URL, with no fault, on the system's time.
	 * @param server the server's URL, such as {@code https://127.0.0.1:6443}
	 * @return the running proxy
	 */
	public static FaultProxy start(URI server) {
		return start(server, Sleeper.system(), RandomGenerator.getDefault());
	}

	/**
	 * Start a proxy to the server at the given URL, with no fault, on the given time.
	 * @param server the server's URL, such as {@code https://127.0.0.1:6443}
	 * @param sleeper decides when latency, bandwidth and black holes end
	 * @param random draws the jitter
	 * @return the running proxy
	 */
	public static FaultProxy start(URI server, Sleeper sleeper, RandomGenerator random) {
		Objects.requireNonNull(server, "server must not be null");
		if (server.getHost() == null || server.getPort() < 0) {
			throw new IllegalArgumentException(
					"The server URL needs a host and a port, such as https://127.0.0.1:6443, not " + server);
		}
		try {
			return new FaultProxy(new InetSocketAddress(server.getHost(), server.getPort()),
					Objects.requireNonNull(sleeper, "sleeper must not be null"),
					Objects.requireNonNull(random, "random must not be null"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not listen on loopback for the fault proxy", ex);
		}
	}

	/**
	 * Return the address the proxy listens on, on loopback.
	 * @return the address
	 */
	public InetSocketAddress address() {
		return new InetSocketAddress(this.listener.getInetAddress(), this.listener.getLocalPort());
	}

	/**
	 * Return the proxy's URL for an application, {@code https://127.0.0.1:<port>}.
	 * @return the URL
	 */
	public URI url() {
		return URI
			.create("https://" + this.listener.getInetAddress().getHostAddress() + ":" + this.listener.getLocalPort());
	}

	/**
	 * Return the given kubeconfig with every cluster's {@code server} set to this proxy,
	 * its certificates and credentials kept.
	 * @param serverKubeconfig the server's kubeconfig, as YAML
	 * @return the kubeconfig for the proxy
	 */
	public String kubeconfig(String serverKubeconfig) {
		Matcher matcher = SERVER_LINE.matcher(serverKubeconfig);
		if (!matcher.find()) {
			throw new IllegalArgumentException("The kubeconfig names no cluster 'server:' to route through the proxy");
		}
		return matcher.replaceAll((match) -> Matcher.quoteReplacement(match.group(1) + url()));
	}

	/**
	 * Delay every chunk of bytes in one direction by the base latency plus a random
	 * jitter between zero and the given one, keeping their order.
	 * @param direction the direction
	 * @param latency the delay every chunk gets
	 * @param jitter the most extra delay a chunk gets, drawn anew for each
	 */
	public void latency(Direction direction, Duration latency, Duration jitter) {
		if (latency.isNegative() || jitter.isNegative()) {
			throw new IllegalArgumentException("latency and jitter must not be negative");
		}
		this.faults.latency(direction, latency, jitter);
	}

	/**
	 * Cap the bytes per second sent on in one direction, per connection.
	 * @param direction the direction
	 * @param bytesPerSecond the cap, at least 1
	 */
	public void bandwidth(Direction direction, long bytesPerSecond) {
		if (bytesPerSecond < 1) {
			throw new IllegalArgumentException("bytesPerSecond must be at least 1, not " + bytesPerSecond);
		}
		this.faults.bandwidth(direction, bytesPerSecond);
	}

	/**
	 * Forward nothing, in either direction, for the given time or until {@link #heal()}:
	 * connections stay open and new ones are accepted and held, as in a network
	 * partition; what was held flows on afterwards, as TCP retransmits it.
	 * @param duration how long the black hole lasts
	 */
	public void blackHole(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("duration must not be negative");
		}
		this.faults.blackHole(duration);
	}

	/**
	 * Remove every latency, bandwidth cap and black hole; connections stay open.
	 */
	public void heal() {
		this.faults.heal();
	}

	/**
	 * Reset every open connection now, with a TCP reset on both sides.
	 * @return how many connections were reset
	 */
	public int resetAll() {
		return resetOlderThan(Duration.ZERO);
	}

	/**
	 * Reset, with a TCP reset on both sides, the connections open for at least the given
	 * time, such as those of long-running watches.
	 * @param age the least age of a connection reset
	 * @return how many connections were reset
	 */
	public int resetOlderThan(Duration age) {
		long now = this.faults.sleeper().read();
		List<ProxiedConnection> old = this.connections.stream()
			.filter((connection) -> now - connection.openedAt() >= age.toNanos())
			.toList();
		old.forEach(ProxiedConnection::reset);
		return old.size();
	}

	/**
	 * Return the number of application connections open through the proxy.
	 * @return the number of connections
	 */
	public int connections() {
		return this.connections.size();
	}

	/**
	 * Return the number of application connections the proxy has accepted since it
	 * started: a client that reconnects after a reset adds one.
	 * @return the number of connections accepted
	 */
	public int accepted() {
		return this.accepted.get();
	}

	/**
	 * Stop listening and reset every connection.
	 */
	@Override
	public void close() {
		this.closed = true;
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// closing is all that is asked
		}
		resetAll();
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.listener.accept();
				client.setTcpNoDelay(true);
			}
			catch (SocketException ex) {
				return;
			}
			catch (IOException ex) {
				continue;
			}
			ProxiedConnection connection = new ProxiedConnection(client, this.upstream, this.faults,
					this.connections::remove);
			this.connections.add(connection);
			this.accepted.incrementAndGet();
			connection.start(this.threads);
		}
	}

}
