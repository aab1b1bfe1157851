package dev.kubereconciler.webhook.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.webhook.server.TlsClients.RawResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link WebhookServer}: real HTTPS on the loopback interface, with clients
 * that trust only the authority of the certificate the server was given.
 */
class WebhookServerTests {

	private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

	private static final String ECHO = "/validate-example-com-v1-widget";

	private static final String HOST = "localhost";

	private final AtomicLong now = new AtomicLong();

	private final RecordingListener listener = new RecordingListener();

	private final HttpClient client = TlsClients.httpClient(TlsClients.trusting(CERTIFICATE));

	private WebhookServer server;

	@AfterEach
	void stopServer() {
		if (this.server != null) {
			this.server.stop(Duration.ZERO);
		}
	}

	private WebhookServer start(WebhookServer.Builder builder) {
		this.server = builder.address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
			.listener(this.listener)
			.ticker(this.now::get)
			.build();
		this.server.start();
		return this.server;
	}

	private WebhookServer startEcho() {
		return start(WebhookServer.builder(CERTIFICATE.sslContext()).endpoint(ECHO, (body) -> {
			this.now.addAndGet(TimeUnit.MILLISECONDS.toNanos(42));
			return body;
		}));
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return this.client.send(request.build(), BodyHandlers.ofString());
	}

	private HttpRequest.Builder post(String path, String json) {
		return TlsClients.post(HOST, this.server.port(), path, json);
	}

	@Test
	void aJsonPostIsAnsweredByTheEndpointOfItsPathAndTimedWithTheTicker() throws Exception {
		startEcho();
		HttpResponse<String> response = send(post(ECHO, "{\"kind\":\"AdmissionReview\"}"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(response.body()).isEqualTo("{\"kind\":\"AdmissionReview\"}");
		await().untilAsserted(() -> assertThat(this.listener.events).containsExactly("started " + ECHO,
				"finished " + ECHO + " 200 " + TimeUnit.MILLISECONDS.toNanos(42)));
	}

	@Test
	void clientsVerifyTheServerAsLocalhostAndAs127001AndRefuseAnotherAuthority() throws Exception {
		startEcho();
		assertThat(send(TlsClients.post("localhost", this.server.port(), ECHO, "{}")).statusCode()).isEqualTo(200);
		assertThat(send(TlsClients.post("127.0.0.1", this.server.port(), ECHO, "{}")).statusCode()).isEqualTo(200);
		HttpClient stranger = TlsClients.httpClient(TlsClients.trusting(SelfSignedCertificate.generate()));
		assertThatExceptionOfType(SSLHandshakeException.class)
			.isThrownBy(() -> stranger.send(post(ECHO, "{}").build(), BodyHandlers.ofString()));
	}

	@Test
	void portZeroBindsAPortOfTheSystemsChoiceThatPortReturnsWhileRunning() {
		WebhookServer server = WebhookServer.builder(CERTIFICATE.sslContext())
			.address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
			.build();
		assertThatIllegalStateException().isThrownBy(server::port);
		server.start();
		try {
			assertThat(server.port()).isPositive();
			assertThat(accepts(server.port())).isTrue();
		}
		finally {
			server.stop(Duration.ZERO);
		}
		assertThatIllegalStateException().isThrownBy(server::port);
	}

	@Test
	void otherMethodsAreRefusedWith405AndAllowPost() throws Exception {
		startEcho();
		HttpResponse<String> response = send(post(ECHO, "{}").GET());
		assertThat(response.statusCode()).isEqualTo(405);
		assertThat(response.headers().firstValue("Allow")).hasValue("POST");
		await().untilAsserted(() -> assertThat(this.listener.events).containsExactly("started " + ECHO,
				"finished " + ECHO + " 405 0"));
	}

	@Test
	void otherContentTypesAreRefusedWith400AndJsonParametersAreAccepted() throws Exception {
		startEcho();
		HttpResponse<String> text = send(post(ECHO, "{}").setHeader("Content-Type", "text/plain"));
		assertThat(text.statusCode()).isEqualTo(400);
		assertThat(text.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
		assertThat(text.body()).isEqualTo("contentType=text/plain, expected application/json\n");
		HttpResponse<String> json = send(post(ECHO, "{}").setHeader("Content-Type", "application/json; charset=utf-8"));
		assertThat(json.statusCode()).isEqualTo(200);
	}

	@Test
	void unknownPathsAre404AndNotMeasured() throws Exception {
		startEcho();
		assertThat(send(post("/validate-unknown", "{}")).statusCode()).isEqualTo(404);
		assertThat(send(post(ECHO, "{}")).statusCode()).isEqualTo(200);
		await()
			.untilAsserted(() -> assertThat(this.listener.events).hasSize(2).allMatch((event) -> event.contains(ECHO)));
	}

	@Test
	void anEmptyBodyIs400() throws Exception {
		startEcho();
		HttpResponse<String> response = send(post(ECHO, ""));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).isEqualTo("request body is empty\n");
	}

	@Test
	void aBodyOfExactlyTheLimitIsAnswered() throws Exception {
		start(WebhookServer.builder(CERTIFICATE.sslContext())
			.endpoint(ECHO, (body) -> ("{\"size\":" + body.length + "}").getBytes(StandardCharsets.UTF_8)));
		HttpResponse<String> response = send(
				post(ECHO, "").POST(HttpRequest.BodyPublishers.ofByteArray(new byte[WebhookServer.MAX_REQUEST_BYTES])));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"size\":" + WebhookServer.MAX_REQUEST_BYTES + "}");
	}

	@Test
	void aDeclaredLengthOverTheLimitIsRefusedWith413BeforeTheBodyIsSent() throws Exception {
		startEcho();
		try (SSLSocket socket = TlsClients.connect(TlsClients.trusting(CERTIFICATE), HOST, this.server.port())) {
			TlsClients.send(socket, TlsClients.postHead(ECHO, WebhookServer.MAX_REQUEST_BYTES + 1), new byte[0]);
			RawResponse response = TlsClients.read(socket);
			assertThat(response.status()).isEqualTo(413);
			assertThat(response.headers()).containsEntry("connection", "close");
			assertThat(response.body()).isEqualTo("request entity is too large; limit is 7340032 bytes\n");
		}
		await().untilAsserted(() -> assertThat(this.listener.events).last().asString().contains(" 413 "));
	}

	@Test
	void aStreamedBodyOverTheLimitIsRefusedWith413() throws Exception {
		startEcho();
		try (SSLSocket socket = TlsClients.connect(TlsClients.trusting(CERTIFICATE), HOST, this.server.port())) {
			String head = "POST " + ECHO + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Transfer-Encoding: chunked\r\n";
			TlsClients.send(socket, head, new byte[0]);
			byte[] chunk = new byte[64 * 1024];
			for (int sent = 0; sent < WebhookServer.MAX_REQUEST_BYTES; sent += chunk.length) {
				TlsClients.send(socket, Integer.toHexString(chunk.length), chunk);
				TlsClients.send(socket, "", new byte[0]);
			}
			// one byte more than the limit, then the end of the body
			TlsClients.send(socket, "1", new byte[] { '{' });
			TlsClients.send(socket, "\r\n0\r\n", new byte[0]);
			RawResponse response = TlsClients.read(socket);
			assertThat(response.status()).isEqualTo(413);
			assertThat(response.headers()).containsEntry("connection", "close");
		}
	}

	@Test
	void anIllegalArgumentOfTheEndpointIs400WithItsMessage() throws Exception {
		start(WebhookServer.builder(CERTIFICATE.sslContext()).endpoint(ECHO, (body) -> {
			throw new IllegalArgumentException("expected an AdmissionReview, got a ConfigMap");
		}));
		HttpResponse<String> response = send(post(ECHO, "{\"kind\":\"ConfigMap\"}"));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
		assertThat(response.body()).isEqualTo("expected an AdmissionReview, got a ConfigMap\n");
	}

	@Test
	void anyOtherExceptionOfTheEndpointIs500WithAShortMessageAndIsLoggedWithItsStackTrace() throws Exception {
		Logger logger = (Logger) LoggerFactory.getLogger(WebhookHttpHandler.class);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		logs.start();
		logger.addAppender(logs);
		try {
			start(WebhookServer.builder(CERTIFICATE.sslContext()).endpoint(ECHO, (body) -> {
				throw new IllegalStateException("the hub's secret detail");
			}));
			HttpResponse<String> response = send(post(ECHO, "{}"));
			assertThat(response.statusCode()).isEqualTo(500);
			assertThat(response.body()).isEqualTo("internal error while answering the webhook request\n");
			assertThat(logs.list).singleElement().satisfies((event) -> {
				assertThat(event.getLevel()).isEqualTo(Level.ERROR);
				assertThat(event.getFormattedMessage()).contains(ECHO);
				assertThat(event.getThrowableProxy().getMessage()).isEqualTo("the hub's secret detail");
			});
		}
		finally {
			logger.detachAppender(logs);
		}
	}

	@Test
	void oneConnectionCarriesOneRequestAfterAnother() throws Exception {
		startEcho();
		try (SSLSocket socket = TlsClients.connect(TlsClients.trusting(CERTIFICATE), HOST, this.server.port())) {
			for (int i = 0; i < 3; i++) {
				byte[] body = ("{\"request\":" + i + "}").getBytes(StandardCharsets.UTF_8);
				TlsClients.send(socket, TlsClients.postHead(ECHO, body.length), body);
				RawResponse response = TlsClients.read(socket);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.headers()).doesNotContainKey("connection");
				assertThat(response.body()).isEqualTo("{\"request\":" + i + "}");
			}
			// a 404 leaves the connection open too
			TlsClients.send(socket, TlsClients.postHead("/unknown", 2), "{}".getBytes(StandardCharsets.UTF_8));
			assertThat(TlsClients.read(socket).status()).isEqualTo(404);
			TlsClients.send(socket, TlsClients.postHead(ECHO, 2), "{}".getBytes(StandardCharsets.UTF_8));
			assertThat(TlsClients.read(socket).status()).isEqualTo(200);
		}
	}

	@Test
	void requestsRunOnTheExecutorGiven() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor((runnable) -> new Thread(runnable, "given"));
		try {
			start(WebhookServer.builder(CERTIFICATE.sslContext())
				.executor(executor)
				.endpoint(ECHO, (body) -> Thread.currentThread().getName().getBytes(StandardCharsets.UTF_8)));
			assertThat(send(post(ECHO, "{}")).body()).isEqualTo("given");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void stopLetsTheRequestInProgressFinishAndRefusesNewConnectionsMeanwhile() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		start(WebhookServer.builder(CERTIFICATE.sslContext()).endpoint(ECHO, (body) -> {
			entered.countDown();
			try {
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return body;
		}));
		int port = this.server.port();
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(post(ECHO, "{\"slow\":true}").build(),
				BodyHandlers.ofString());
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> this.server.stop(Duration.ofSeconds(30)));
		await().until(() -> !accepts(port));
		assertThat(stopped).isNotDone();
		release.countDown();
		assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(response.get().body()).isEqualTo("{\"slow\":true}");
		stopped.get(30, TimeUnit.SECONDS);
	}

	@Test
	void stopWithNoRequestInProgressDoesNotWaitForTheGracePeriod() throws Exception {
		startEcho();
		assertThat(send(post(ECHO, "{}")).statusCode()).isEqualTo(200);
		int port = this.server.port();
		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> this.server.stop(Duration.ofMinutes(1)));
		assertThat(accepts(port)).isFalse();
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static final class RecordingListener implements WebhookListener {

		private final Queue<String> events = new ConcurrentLinkedQueue<>();

		@Override
		public void started(String path) {
			this.events.add("started " + path);
		}

		@Override
		public void finished(String path, int code, long nanos) {
			this.events.add("finished " + path + " " + code + " " + nanos);
		}

	}

}
