package dev.kubereconciler.test.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * One application connection through a {@link FaultProxy} and its connection to the
 * server: per direction, a reader that stamps each chunk with the time it is due, and a
 * writer that holds it until then, through black holes and under the bandwidth cap.
 */
final class ProxiedConnection {

	private static final int CHUNK_BYTES = 16 * 1024;

	// bounded, so that a held or slowed direction pushes back on its sender as TCP does
	private static final int QUEUED_CHUNKS = 64;

	private final Socket client;

	private final InetSocketAddress upstreamAddress;

	private final Faults faults;

	private final long openedAt;

	private final Consumer<ProxiedConnection> onClose;

	private final List<Thread> threads = new CopyOnWriteArrayList<>();

	private volatile @Nullable Socket upstream;

	private volatile boolean closed;

	private final AtomicInteger finished = new AtomicInteger();

	ProxiedConnection(Socket client, InetSocketAddress upstreamAddress, Faults faults,
			Consumer<ProxiedConnection> onClose) {
		this.client = client;
		this.upstreamAddress = upstreamAddress;
		this.faults = faults;
		this.openedAt = faults.sleeper().read();
		this.onClose = onClose;
	}

	long openedAt() {
		return this.openedAt;
	}

	void start(ThreadFactory threadFactory) {
		Thread connector = threadFactory.newThread(() -> connect(threadFactory));
		this.threads.add(connector);
		connector.start();
	}

	private void connect(ThreadFactory threadFactory) {
		try {
			// a black hole accepts and holds new connections too: they connect when it
			// ends
			this.faults.holdWhileBlackHole();
			Socket upstream = new Socket();
			upstream.setTcpNoDelay(true);
			upstream.connect(this.upstreamAddress);
			this.upstream = upstream;
			if (this.closed) {
				reset();
				return;
			}
			pump(this.client, upstream, Direction.TO_SERVER, threadFactory);
			pump(upstream, this.client, Direction.TO_CLIENT, threadFactory);
		}
		catch (IOException | InterruptedException ex) {
			reset();
		}
	}

	private void pump(Socket from, Socket to, Direction direction, ThreadFactory threadFactory) throws IOException {
		BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
		InputStream in = from.getInputStream();
		OutputStream out = to.getOutputStream();
		Thread reader = threadFactory.newThread(() -> read(in, queue, direction));
		Thread writer = threadFactory.newThread(() -> write(queue, out, to, direction));
		this.threads.add(reader);
		this.threads.add(writer);
		reader.start();
		writer.start();
	}

	private void read(InputStream in, BlockingQueue<Chunk> queue, Direction direction) {
		try {
			while (true) {
				byte[] buffer = new byte[CHUNK_BYTES];
				int length = in.read(buffer);
				queue.put(new Chunk(buffer, length, this.faults.dueTime(direction)));
				if (length < 0) {
					return;
				}
			}
		}
		catch (IOException | InterruptedException ex) {
			reset();
		}
	}

	private void write(BlockingQueue<Chunk> queue, OutputStream out, Socket to, Direction direction) {
		try {
			while (true) {
				Chunk chunk = queue.take();
				this.faults.sleeper().sleep(chunk.due() - this.faults.sleeper().read());
				this.faults.holdWhileBlackHole();
				if (chunk.length() < 0) {
					to.shutdownOutput();
					if (this.finished.incrementAndGet() == 2) {
						reset();
					}
					return;
				}
				this.faults.sleeper().sleep(this.faults.transmitNanos(direction, chunk.length()));
				out.write(chunk.data(), 0, chunk.length());
				out.flush();
			}
		}
		catch (IOException | InterruptedException ex) {
			reset();
		}
	}

	/**
	 * Close both sockets at once with a TCP reset (a linger of zero), as a broken network
	 * or a restarted load balancer does, rather than with an orderly FIN.
	 */
	void reset() {
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
		}
		abort(this.client);
		Socket upstream = this.upstream;
		if (upstream != null) {
			abort(upstream);
		}
		for (Thread thread : this.threads) {
			if (thread != Thread.currentThread()) {
				thread.interrupt();
			}
		}
		this.onClose.accept(this);
	}

	private static void abort(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
		}
		catch (IOException ex) {
			// already closed: nothing to reset
		}
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing is all that is asked
		}
	}

	private record Chunk(byte[] data, int length, long due) {
	}

}
