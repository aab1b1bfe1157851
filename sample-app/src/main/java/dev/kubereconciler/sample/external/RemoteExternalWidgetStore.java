package dev.kubereconciler.sample.external;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.kubereconciler.sample.external.ExternalWidgetApi.ExternalWidget;

/**
 * The widgets in a store that replicas share over HTTP, as they would share a real
 * external system: a new leader finds what the old one provisioned.
 *
 * <p>
 * The protocol is plain text, one widget per line as {@code id TAB key TAB color TAB
 * size}: {@code POST /widgets} with the form {@code key}, {@code color}, {@code size}
 * provisions; {@code PUT /widgets/{id}} with {@code color} and {@code size} updates (404
 * when the store does not hold it); {@code GET /widgets/{id}} finds; {@code DELETE
 * /widgets/{id}} removes; {@code GET /widgets} lists, {@code GET /widgets?key=} only the
 * widget of an idempotency key.
 */
public class RemoteExternalWidgetStore implements ExternalWidgetStore {

	private static final String FORM = "application/x-www-form-urlencoded";

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final URI widgets;

	private final HttpClient client;

	/**
	 * Create a client of the store at a base URL.
	 * @param url the store's base URL, such as {@code http://127.0.0.1:8099}
	 */
	public RemoteExternalWidgetStore(URI url) {
		String base = url.toString();
		this.widgets = URI.create((base.endsWith("/") ? base : base + "/") + "widgets");
		this.client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
	}

	@Override
	public ExternalWidget provision(String key, String color, int size) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(this.widgets)
			.header("Content-Type", FORM)
			.POST(form("key", key, "color", color, "size", String.valueOf(size))));
		return parse(expect(response, 200).body().strip());
	}

	@Override
	public boolean update(String id, String color, int size) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(widget(id))
			.header("Content-Type", FORM)
			.PUT(form("color", color, "size", String.valueOf(size))));
		return response.statusCode() != 404 && expect(response, 204) != null;
	}

	@Override
	public Optional<ExternalWidget> find(String id) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(widget(id)).GET());
		return (response.statusCode() == 404) ? Optional.empty()
				: Optional.of(parse(expect(response, 200).body().strip()));
	}

	@Override
	public Optional<ExternalWidget> findByKey(String key) {
		URI query = URI.create(this.widgets + "?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
		return expect(send(HttpRequest.newBuilder(query).GET()), 200).body()
			.lines()
			.filter((line) -> !line.isBlank())
			.map(RemoteExternalWidgetStore::parse)
			.findFirst();
	}

	@Override
	public void remove(String id) {
		expect(send(HttpRequest.newBuilder(widget(id)).DELETE()), 204);
	}

	@Override
	public List<ExternalWidget> widgets() {
		return expect(send(HttpRequest.newBuilder(this.widgets).GET()), 200).body()
			.lines()
			.filter((line) -> !line.isBlank())
			.map(RemoteExternalWidgetStore::parse)
			.toList();
	}

	/**
	 * Format a widget as one line of the protocol.
	 * @param widget the widget
	 * @return its line, without a line break
	 */
	public static String format(ExternalWidget widget) {
		return widget.id() + "\t" + widget.key() + "\t" + widget.color() + "\t" + widget.size();
	}

	/**
	 * Parse one line of the protocol.
	 * @param line the line
	 * @return the widget
	 */
	public static ExternalWidget parse(String line) {
		String[] fields = line.split("\t", -1);
		if (fields.length != 4) {
			throw new ExternalApiException(502, "the external widget store answered a malformed widget: " + line);
		}
		return new ExternalWidget(fields[0], fields[1], fields[2], Integer.parseInt(fields[3]));
	}

	private URI widget(String id) {
		return URI.create(this.widgets + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
	}

	private HttpResponse<String> send(HttpRequest.Builder request) {
		HttpRequest built = request.timeout(TIMEOUT).build();
		try {
			return this.client.send(built, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new ExternalApiException(503, "the external widget store did not answer " + built.method() + " "
					+ built.uri().getPath() + ": " + ex.getClass().getSimpleName());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ExternalApiException(499, "call to the external widget store was interrupted");
		}
	}

	private static HttpResponse<String> expect(HttpResponse<String> response, int status) {
		if (response.statusCode() != status) {
			throw new ExternalApiException(502, "the external widget store answered " + response.statusCode() + " to "
					+ response.request().method() + " " + response.request().uri().getPath());
		}
		return response;
	}

	private static HttpRequest.BodyPublisher form(String... namesAndValues) {
		StringBuilder form = new StringBuilder();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			form.append((i > 0) ? "&" : "")
				.append(namesAndValues[i])
				.append('=')
				.append(URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
		}
		return HttpRequest.BodyPublishers.ofString(form.toString());
	}

}
