package dev.kubereconciler.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.kubereconciler.sample.external.InMemoryExternalWidgetStore;
import dev.kubereconciler.sample.external.RemoteExternalWidgetStore;

/**
 * One widget store served over HTTP on loopback, in the protocol
 * {@link RemoteExternalWidgetStore} speaks, so that replicas share it as they would share
 * a real external system.
 */
final class ExternalWidgetStoreServer implements AutoCloseable {

	private final InMemoryExternalWidgetStore store = new InMemoryExternalWidgetStore();

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private final HttpServer server;

	private ExternalWidgetStoreServer(HttpServer server) {
		this.server = server;
		server.createContext("/widgets", this::handle);
		server.setExecutor(this.executor);
		server.start();
	}

	static ExternalWidgetStoreServer start() throws IOException {
		return new ExternalWidgetStoreServer(
				HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
	}

	/** The base URL, for {@code sample.external-api.store-url}. */
	URI url() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	/**
	 * The widgets, read and changed in this process as the external system's own
	 * operators would.
	 */
	InMemoryExternalWidgetStore store() {
		return this.store;
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getRawPath();
			String id = path.startsWith("/widgets/")
					? URLDecoder.decode(path.substring("/widgets/".length()), StandardCharsets.UTF_8) : null;
			Map<String, String> form = form(exchange.getRequestBody());
			switch (exchange.getRequestMethod()) {
				case "POST" -> answer(exchange, 200, RemoteExternalWidgetStore.format(
						this.store.provision(form.get("key"), form.get("color"), Integer.parseInt(form.get("size")))));
				case "PUT" -> answer(exchange,
						(this.store.update(id, form.get("color"), Integer.parseInt(form.get("size")))) ? 204 : 404, "");
				case "DELETE" -> {
					this.store.remove(id);
					answer(exchange, 204, "");
				}
				default -> {
					String query = exchange.getRequestURI().getRawQuery();
					if (id == null && query != null && query.startsWith("key=")) {
						String key = URLDecoder.decode(query.substring("key=".length()), StandardCharsets.UTF_8);
						answer(exchange, 200,
								this.store.findByKey(key).map(RemoteExternalWidgetStore::format).orElse(""));
					}
					else if (id == null) {
						answer(exchange, 200,
								this.store.widgets()
									.stream()
									.map(RemoteExternalWidgetStore::format)
									.collect(Collectors.joining("\n")));
					}
					else {
						var widget = this.store.find(id);
						answer(exchange, widget.isPresent() ? 200 : 404,
								widget.map(RemoteExternalWidgetStore::format).orElse(""));
					}
				}
			}
		}
	}

	private static Map<String, String> form(InputStream body) throws IOException {
		Map<String, String> form = new HashMap<>();
		for (String pair : new String(body.readAllBytes(), StandardCharsets.UTF_8).split("&")) {
			int equals = pair.indexOf('=');
			if (equals > 0) {
				form.put(pair.substring(0, equals),
						URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
			}
		}
		return form;
	}

	private static void answer(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, (status == 204 || bytes.length == 0) ? -1 : bytes.length);
		if (bytes.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
