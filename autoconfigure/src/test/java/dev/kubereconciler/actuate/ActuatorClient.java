package dev.kubereconciler.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

/**
 * A plain HTTP client for the Actuator of an application under test, so that web tests
 * see exactly the status and JSON that a caller sees.
 */
final class ActuatorClient {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	ActuatorClient(int port) {
		this.base = "http://localhost:" + port + "/actuator";
	}

	Response get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).GET());
	}

	Response post(String path, String json) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A response.
	 *
	 * @param status the HTTP status
	 * @param body the body, empty when there is none
	 */
	record Response(int status, String body) {

		DocumentContext json() {
			return JsonPath.parse(this.body);
		}

		<T> T read(String path) {
			return json().read(path);
		}

		// the JSON parser answers BigDecimal for numbers with many digits, Double
		// for others
		double number(String path) {
			return json().<Number>read(path).doubleValue();
		}

	}

}
