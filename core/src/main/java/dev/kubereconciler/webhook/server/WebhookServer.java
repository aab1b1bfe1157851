package dev.kubereconciler.webhook.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.time.Ticker;

/**
 * The HTTPS server that answers the API server's webhook calls, one
 * {@link WebhookEndpoint} per path, as controller-runtime's webhook server does, on the
 * JDK's {@link HttpsServer}.
 *
 * <p>
 * A known path answers a {@code POST} whose {@code Content-Type} is
 * {@code application/json} (parameters such as {@code charset} allowed) with the
 * endpoint's JSON and {@code 200}. Otherwise: an unknown path gets {@code 404}, another
 * method {@code 405} with {@code Allow: POST}, another content type or an empty body
 * {@code 400}, a body over {@link #MAX_REQUEST_BYTES} {@code 413}, an endpoint's
 * {@link IllegalArgumentException} {@code 400} with its message, and any other exception
 * {@code 500} with a short message, the exception being logged. Errors are
 * {@code text/plain}. Connections are kept alive between requests, as the API server
 * reuses them. The {@link WebhookListener} hears of every request to a known path.
 *
 * <p>
 * {@link #updateSslContext(SSLContext)} rotates the certificate without a restart. The
 * JDK's server reads its {@code SSLContext} once, when
 * {@link HttpsServer#setHttpsConfigurator(HttpsConfigurator)} is called, which it refuses
 * once started, and then creates each new connection's {@code SSLEngine} from it. So the
 * server is given a delegating {@code SSLContext} whose every call goes to the context
 * set last: new connections present the new certificate, and a connection already open
 * keeps the engine, certificate and session it was made with until it closes, so that no
 * request fails during a swap.
 *
 * <p>
 * The JDK's server asks for the host name of each new connection's peer, a reverse DNS
 * lookup that the JVM caches; connections kept alive make it rare.
 */
public final class WebhookServer {

	/** The port controller-runtime's webhook server listens on unless told otherwise. */
	public static final int DEFAULT_PORT = 9443;

	/**
	 * The largest request body accepted, controller-runtime's: an admission review holds
	 * at most two objects of the API server's 3 MiB limit, plus 1 MiB for the rest.
	 */
	public static final int MAX_REQUEST_BYTES = 7 * 1024 * 1024;

	/** The number of request threads of a server given no executor. */
	public static final int DEFAULT_THREADS = 8;

	private final InetSocketAddress address;

	private final RotatingSslContext sslContext;

	private final WebhookHttpHandler handler;

	private volatile boolean stopping;

	private @Nullable HttpsServer server;

	private final RequestThreads threads;

	private WebhookServer(Builder builder) {
		this.address = builder.address;
		this.sslContext = RotatingSslContext.of(builder.sslContext);
		this.threads = new RequestThreads(builder.executor, builder.threads, builder.threadFactory);
		this.handler = new WebhookHttpHandler(Map.copyOf(builder.endpoints), builder.listener, builder.ticker,
				() -> this.stopping);
	}

	/**
	 * Start building a server.
	 * @param sslContext the TLS context whose certificate the server presents first
	 * @return the builder
	 */
	public static Builder builder(SSLContext sslContext) {
		return new Builder(sslContext);
	}

	/**
	 * Bind the address and start answering requests.
	 * @throws IllegalStateException if the server runs already
	 * @throws UncheckedIOException if the address cannot be bound
	 */
	public synchronized void start() {
		if (this.server != null) {
			throw new IllegalStateException("The webhook server is running");
		}
		HttpsServer server;
		try {
			JdkServerQuirks.enableNoDelay();
			server = HttpsServer.create(this.address, 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not listen on " + this.address, ex);
		}
		server.setHttpsConfigurator(new HttpsConfigurator(this.sslContext));
		server.setExecutor(this.threads.start());
		server.createContext("/", this.handler);
		this.stopping = false;
		server.start();
		this.server = server;
	}

	/**
	 * Stop accepting connections, let the requests in progress finish for at most the
	 * grace period, then close every connection. Responses sent meanwhile ask the client
	 * to close the connection.
	 *
	 * <p>
	 * The JDK's server counts the grace period in whole seconds, so it is rounded up; and
	 * as JDK 17's waits for the whole period when no request is in progress (fixed in JDK
	 * 22), a server with none stops at once.
	 * @param grace how long requests in progress may take to finish
	 */
	public void stop(Duration grace) {
		HttpsServer server;
		synchronized (this) {
			server = this.server;
			this.server = null;
		}
		if (server == null) {
			return;
		}
		this.stopping = true;
		server.stop((this.handler.inFlight() > 0) ? JdkServerQuirks.wholeSeconds(grace) : 0);
		this.threads.stop();
	}

	/**
	 * Return the address the server listens on, as configured: a wildcard address listens
	 * on every interface.
	 * @return the configured address, with the port the server was given (0 for any)
	 */
	public InetSocketAddress address() {
		return this.address;
	}

	/**
	 * Return the port the server listens on, the one the system chose if it was given
	 * port 0.
	 * @return the port
	 * @throws IllegalStateException if the server does not run
	 */
	public synchronized int port() {
		HttpsServer server = this.server;
		if (server == null) {
			throw new IllegalStateException("The webhook server is not running");
		}
		return server.getAddress().getPort();
	}

	/**
	 * Present another certificate from now on: connections made after this call use the
	 * new context, and connections already open keep theirs. Also works while stopped.
	 * @param sslContext the new TLS context, initialized with the new certificate
	 */
	public void updateSslContext(SSLContext sslContext) {
		this.sslContext.set(Objects.requireNonNull(sslContext, "sslContext must not be null"));
	}

	/**
	 * Builds a {@link WebhookServer}; every setting but the TLS context has a default.
	 */
	public static final class Builder {

		private final SSLContext sslContext;

		private InetSocketAddress address = new InetSocketAddress(DEFAULT_PORT);

		private final Map<String, WebhookEndpoint> endpoints = new LinkedHashMap<>();

		private WebhookListener listener = WebhookListener.NONE;

		private Ticker ticker = Ticker.system();

		private @Nullable Executor executor;

		private int threads = DEFAULT_THREADS;

		private ThreadFactory threadFactory = Thread::new;

		private Builder(SSLContext sslContext) {
			this.sslContext = Objects.requireNonNull(sslContext, "sslContext must not be null");
		}

		/**
		 * Set the address to listen on; port 0 lets the system choose one, which
		 * {@link WebhookServer#port()} returns. Default: every interface, port
		 * {@value WebhookServer#DEFAULT_PORT}.
		 * @param address the address
		 * @return this builder
		 */
		public Builder address(InetSocketAddress address) {
			this.address = Objects.requireNonNull(address, "address must not be null");
			return this;
		}

		/**
		 * Serve an endpoint at a path, replacing any endpoint the path had.
		 * @param path the path, such as {@code /validate-apps-v1-deployment}
		 * @param endpoint the endpoint
		 * @return this builder
		 */
		public Builder endpoint(String path, WebhookEndpoint endpoint) {
			if (!path.startsWith("/")) {
				throw new IllegalArgumentException("A webhook path starts with '/': " + path);
			}
			this.endpoints.put(path, Objects.requireNonNull(endpoint, "endpoint must not be null"));
			return this;
		}

		/**
		 * Serve several endpoints, by path.
		 * @param endpoints the endpoints
		 * @return this builder
		 */
		public Builder endpoints(Map<String, ? extends WebhookEndpoint> endpoints) {
			endpoints.forEach(this::endpoint);
			return this;
		}

		/**
		 * Set the listener that hears of each request to a known path, for metrics.
		 * Default: {@link WebhookListener#NONE}.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(WebhookListener listener) {
			this.listener = Objects.requireNonNull(listener, "listener must not be null");
			return this;
		}

		/**
		 * Set the ticker that times requests for the listener. Default:
		 * {@link Ticker#system()}.
		 * @param ticker the ticker
		 * @return this builder
		 */
		public Builder ticker(Ticker ticker) {
			this.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
			return this;
		}

		/**
		 * Answer requests, TLS handshakes included, on the given executor, which the
		 * caller owns and shuts down after {@link WebhookServer#stop(Duration)}. Default:
		 * none, and the server runs a pool of its own, as {@link #threads} describes.
		 * @param executor the executor
		 * @return this builder
		 */
		public Builder executor(Executor executor) {
			this.executor = Objects.requireNonNull(executor, "executor must not be null");
			return this;
		}

		/**
		 * Answer requests on a pool of the server's own, made at each start and shut down
		 * at each stop, when no {@link #executor(Executor)} is given. Default:
		 * {@value WebhookServer#DEFAULT_THREADS} threads from {@code Thread::new}.
		 * @param threads the most requests answered at once; more wait their turn
		 * @param threadFactory makes the pool's threads, which the server names
		 * @return this builder
		 */
		public Builder threads(int threads, ThreadFactory threadFactory) {
			if (threads < 1) {
				throw new IllegalArgumentException("A webhook server needs at least one thread, not " + threads);
			}
			this.threads = threads;
			this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory must not be null");
			return this;
		}

		/**
		 * Build the server, which listens only once started.
		 * @return the server
		 */
		public WebhookServer build() {
			return new WebhookServer(this);
		}

	}

}
