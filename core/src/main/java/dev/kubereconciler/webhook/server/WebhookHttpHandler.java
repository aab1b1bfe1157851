package dev.kubereconciler.webhook.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.time.Ticker;

/**
 * The HTTP side of the {@link WebhookServer}, as controller-runtime's
 * {@code admission.Webhook.ServeHTTP} has it: a JSON {@code POST} of at most
 * {@link WebhookServer#MAX_REQUEST_BYTES} to a known path reaches its endpoint, and
 * everything else gets a status that says what is wrong.
 */
final class WebhookHttpHandler implements HttpHandler {

	private static final Logger logger = LoggerFactory.getLogger(WebhookHttpHandler.class);

	private static final String JSON = "application/json";

	private static final String TEXT = "text/plain; charset=utf-8";

	private final Map<String, WebhookEndpoint> endpoints;

	private final WebhookListener listener;

	private final Ticker ticker;

	private final BooleanSupplier stopping;

	private final AtomicInteger inFlight = new AtomicInteger();

	WebhookHttpHandler(Map<String, WebhookEndpoint> endpoints, WebhookListener listener, Ticker ticker,
			BooleanSupplier stopping) {
		this.endpoints = endpoints;
		this.listener = listener;
		this.ticker = ticker;
		this.stopping = stopping;
	}

	/**
	 * Return how many requests are being answered.
	 */
	int inFlight() {
		return this.inFlight.get();
	}

	@Override
	public void handle(HttpExchange exchange) {
		this.inFlight.incrementAndGet();
		try {
			String path = exchange.getRequestURI().getPath();
			WebhookEndpoint endpoint = this.endpoints.get(path);
			if (endpoint == null) {
				// unmeasured, as controller-runtime measures registered webhooks only
				send(exchange, Response.text(404, "404 page not found"));
				return;
			}
			long start = this.ticker.read();
			this.listener.started(path);
			Response response = Response.internalError();
			try {
				response = answer(exchange, path, endpoint);
				send(exchange, response);
			}
			finally {
				this.listener.finished(path, response.code(), this.ticker.read() - start);
			}
		}
		catch (IOException ex) {
			// the client went away before it had its answer; nobody is left to tell
			logger.debug("Could not answer a webhook request to {}", exchange.getRequestURI(), ex);
		}
		finally {
			exchange.close();
			this.inFlight.decrementAndGet();
		}
	}

	private Response answer(HttpExchange exchange, String path, WebhookEndpoint endpoint) {
		if (!"POST".equals(exchange.getRequestMethod())) {
			return Response.methodNotAllowed();
		}
		String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
		if (!isJson(contentType)) {
			return Response.text(400,
					"contentType=" + ((contentType != null) ? contentType : "") + ", expected application/json");
		}
		byte[] body;
		try {
			body = readBody(exchange);
		}
		catch (IOException ex) {
			return Response.text(400, "unable to read the body from the incoming request: " + ex.getMessage());
		}
		if (body == null) {
			return Response.tooLarge();
		}
		if (body.length == 0) {
			return Response.text(400, "request body is empty");
		}
		try {
			return new Response(200, JSON, endpoint.handle(body), false);
		}
		catch (IllegalArgumentException ex) {
			return Response.text(400, (ex.getMessage() != null) ? ex.getMessage() : "bad request");
		}
		catch (Exception ex) {
			logger.error("Webhook {} failed to answer a request", path, ex);
			return Response.internalError();
		}
	}

	private static boolean isJson(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		int parameters = contentType.indexOf(';');
		String mediaType = (parameters >= 0) ? contentType.substring(0, parameters) : contentType;
		return JSON.equals(mediaType.trim().toLowerCase(Locale.ROOT));
	}

	/**
	 * Read the body, or return {@code null} if it is larger than the limit; a declared
	 * length over the limit is refused before a byte of it is read.
	 */
	private static byte @Nullable [] readBody(HttpExchange exchange) throws IOException {
		String length = exchange.getRequestHeaders().getFirst("Content-Length");
		if (length != null && declaredTooLarge(length)) {
			return null;
		}
		InputStream in = exchange.getRequestBody();
		byte[] body = in.readNBytes(WebhookServer.MAX_REQUEST_BYTES + 1);
		return (body.length > WebhookServer.MAX_REQUEST_BYTES) ? null : body;
	}

	private static boolean declaredTooLarge(String length) {
		try {
			return Long.parseLong(length.trim()) > WebhookServer.MAX_REQUEST_BYTES;
		}
		catch (NumberFormatException ex) {
			// the JDK's server refuses such a request before it gets here
			return false;
		}
	}

	private void send(HttpExchange exchange, Response response) throws IOException {
		Headers headers = exchange.getResponseHeaders();
		headers.set("Content-Type", response.contentType());
		if (response.code() == 405) {
			headers.set("Allow", "POST");
		}
		if (!JSON.equals(response.contentType())) {
			headers.set("X-Content-Type-Options", "nosniff");
		}
		// while the server drains, a client must not send its next request on a
		// connection that is about to close
		if (response.closesConnection() || this.stopping.getAsBoolean()) {
			headers.set("Connection", "close");
		}
		byte[] body = response.body();
		boolean head = "HEAD".equals(exchange.getRequestMethod());
		// -1: no body at all; 0 would announce a chunked one
		exchange.sendResponseHeaders(response.code(), (head || body.length == 0) ? -1 : body.length);
		if (!head && body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	private record Response(int code, String contentType, byte[] body, boolean closesConnection) {

		static Response text(int code, String message) {
			return new Response(code, TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8), false);
		}

		static Response methodNotAllowed() {
			return text(405, "method not allowed; a webhook takes POST only");
		}

		static Response tooLarge() {
			String message = "request entity is too large; limit is " + WebhookServer.MAX_REQUEST_BYTES + " bytes\n";
			// the rest of the body stays unread, so the connection cannot carry another
			// request
			return new Response(413, TEXT, message.getBytes(StandardCharsets.UTF_8), true);
		}

		static Response internalError() {
			return text(500, "internal error while answering the webhook request");
		}

	}

}
