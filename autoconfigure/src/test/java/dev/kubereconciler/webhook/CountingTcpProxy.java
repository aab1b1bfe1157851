package dev.kubereconciler.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Relays TCP connections on loopback to another port, byte for byte, and counts them: put
 * between the API server and the webhook server, it tells a test when the API server
 * opened a connection, and so made a TLS handshake, which it cannot see through the TLS
 * it does not take part in.
 */
final class CountingTcpProxy implements AutoCloseable {

	private final InetAddress loopback;

	private final ServerSocket server;

	private final AtomicInteger connections = new AtomicInteger();

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile int targetPort;

	CountingTcpProxy() {
		try {
			this.loopback = InetAddress.getByAddress("localhost", new byte[] { 127, 0, 0, 1 });
			this.server = new ServerSocket(0, 50, this.loopback);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		daemon(this::accept, "proxy-accept").start();
	}

	/**
	 * Return the port the proxy listens on.
	 */
	int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Relay the connections accepted from now on to the given port on 127.0.0.1.
	 */
	void forwardTo(int port) {
		this.targetPort = port;
	}

	/**
	 * Return how many connections were accepted so far.
	 */
	int connections() {
		return this.connections.get();
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				this.connections.incrementAndGet();
				Socket target = new Socket(this.loopback, this.targetPort);
				this.sockets.add(client);
				this.sockets.add(target);
				daemon(() -> relay(client, target), "proxy-up").start();
				daemon(() -> relay(target, client), "proxy-down").start();
			}
			catch (IOException ex) {
				// closed, or the target refused the connection: the client sees it close
			}
		}
	}

	private void relay(Socket from, Socket to) {
		try {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			byte[] buffer = new byte[16 * 1024];
			for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
				out.write(buffer, 0, read);
				out.flush();
			}
			to.shutdownOutput();
			if (from.isOutputShutdown()) {
				close(from);
				close(to);
			}
		}
		catch (IOException ex) {
			close(from);
			close(to);
		}
	}

	private void close(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing already
		}
		this.sockets.remove(socket);
	}

	private static Thread daemon(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

}
