package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.ClientBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain main class run by {@link DeployedApplicationTests} as a replica: it binds
 * {@code SERVER_ADDRESS} as Spring Boot would, answers its probes, and tells the test
 * what it sees of its environment, files and API server.
 */
public final class ProbedApplication {

	private static final Logger logger = LoggerFactory.getLogger(ProbedApplication.class);

	private final AtomicBoolean ready = new AtomicBoolean(true);

	private final AtomicBoolean live = new AtomicBoolean(true);

	private final AtomicBoolean hangOnTerm = new AtomicBoolean();

	private ProbedApplication() {
	}

	public static void main(String[] args) throws IOException {
		new ProbedApplication().run(args);
	}

	private void run(String[] args) throws IOException {
		int port = 8080;
		for (String arg : args) {
			if (arg.startsWith("--port=")) {
				port = Integer.parseInt(arg.substring("--port=".length()));
			}
		}
		HttpServer server = HttpServer.create(new InetSocketAddress(System.getenv("SERVER_ADDRESS"), port), 0);
		server.createContext("/ready", (exchange) -> answer(exchange, this.ready.get() ? 200 : 503, "ready"));
		server.createContext("/live", (exchange) -> answer(exchange, this.live.get() ? 200 : 500, "live"));
		server.createContext("/set", (exchange) -> {
			Map<String, AtomicBoolean> flags = Map.of("ready", this.ready, "live", this.live, "hang-on-term",
					this.hangOnTerm);
			String[] flag = exchange.getRequestURI().getQuery().split("=");
			flags.get(flag[0]).set(Boolean.parseBoolean(flag[1]));
			answer(exchange, 200, "set");
		});
		server.createContext("/env", (exchange) -> answer(exchange, 200,
				String.valueOf(System.getenv(exchange.getRequestURI().getQuery()))));
		server.createContext("/property", (exchange) -> answer(exchange, 200,
				String.valueOf(System.getProperty(exchange.getRequestURI().getQuery()))));
		server.createContext("/args", (exchange) -> answer(exchange, 200, String.join(" ", args)));
		server.createContext("/file", (exchange) -> {
			Path file = Path.of(URI.create(System.getenv(exchange.getRequestURI().getQuery())));
			answer(exchange, 200, Files.readString(file));
		});
		server.createContext("/api", (exchange) -> answer(exchange, 200, api(exchange.getRequestURI().getQuery())));
		// probes are answered while a request to the API server is under way
		server.setExecutor(Executors.newCachedThreadPool());
		server.start();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> drain(server)));
		logger.info("Probed application listening on {}:{}", System.getenv("SERVER_ADDRESS"), port);
	}

	private void drain(HttpServer server) {
		logger.info("SIGTERM received, draining");
		if (this.hangOnTerm.get()) {
			try {
				// a shutdown that never ends, so that the kubelet's SIGKILL ends it
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		server.stop(0);
	}

	// the read the test asks for, made as the ServiceAccount with the KUBECONFIG the
	// runner set
	private static String api(String what) {
		try {
			ApiClient client = ClientBuilder.standard().setReadTimeout(Duration.ZERO).build();
			String namespace = System.getenv("POD_NAMESPACE");
			CoreV1Api api = new CoreV1Api(client);
			if (what.equals("configmaps")) {
				api.listNamespacedConfigMap(namespace).execute();
			}
			else {
				api.listNamespacedSecret(namespace).execute();
			}
			return "200";
		}
		catch (ApiException ex) {
			return Integer.toString(ex.getCode());
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	private static void answer(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
