package dev.kubereconciler.webhook.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.webhook.server.TlsClients.RawResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link WebhookServer#updateSslContext}: the certificate a server presents
 * changes for new connections, without a failed request, and connections already open
 * keep theirs.
 */
class WebhookServerCertificateRotationTests {

	private static final String PATH = "/convert";

	private final SelfSignedCertificate first = SelfSignedCertificate.generate();

	private final SelfSignedCertificate second = SelfSignedCertificate.generate();

	private final WebhookServer server = WebhookServer.builder(this.first.sslContext())
		.address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
		.endpoint(PATH, (body) -> body)
		.build();

	@BeforeEach
	void startServer() {
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.stop(Duration.ZERO);
	}

	@Test
	void newConnectionsPresentTheCertificateSetLastAndOpenOnesKeepTheirs() throws Exception {
		HttpClient before = TlsClients.httpClient(TlsClients.trusting(this.first));
		assertThat(post(before).statusCode()).isEqualTo(200);
		this.server.updateSslContext(this.second.sslContext());
		// the client's pooled connection still has the first certificate, which it trusts
		assertThat(post(before).statusCode()).isEqualTo(200);
		HttpClient trustingFirst = TlsClients.httpClient(TlsClients.trusting(this.first));
		assertThatExceptionOfType(SSLHandshakeException.class).isThrownBy(() -> post(trustingFirst));
		HttpClient trustingSecond = TlsClients.httpClient(TlsClients.trusting(this.second));
		assertThat(post(trustingSecond).statusCode()).isEqualTo(200);
	}

	@Test
	void noRequestFailsWhileTheCertificateIsSwappedUnderLoad() throws Exception {
		SSLContext trustingBoth = TlsClients.trusting(this.first, this.second);
		HttpClient shared = TlsClients.httpClient(trustingBoth);
		Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
		Set<Certificate> presented = ConcurrentHashMap.newKeySet();
		List<AtomicInteger> answered = IntStream.range(0, 4).mapToObj((i) -> new AtomicInteger()).toList();
		AtomicBoolean running = new AtomicBoolean(true);
		ExecutorService senders = Executors.newFixedThreadPool(answered.size());
		try {
			for (int i = 0; i < answered.size(); i++) {
				AtomicInteger count = answered.get(i);
				// half reuse their connections, half make a new one per request
				boolean reuse = i % 2 == 0;
				senders.execute(() -> {
					while (running.get()) {
						try {
							if (reuse) {
								assertThat(post(shared).statusCode()).isEqualTo(200);
							}
							else {
								presented.add(postOnNewConnection(trustingBoth));
							}
							count.incrementAndGet();
						}
						catch (Throwable ex) {
							failures.add(ex);
						}
					}
				});
			}
			awaitEach(answered, (sender) -> 20);
			this.server.updateSslContext(this.second.sslContext());
			// 20 more answers to each sender after the swap: one reusing its connection
			// answers far faster than one shaking hands per request, and waiting for the
			// slowest to reach the fastest's count took 17 s
			int[] swappedAt = answered.stream().mapToInt(AtomicInteger::get).toArray();
			awaitEach(answered, (sender) -> swappedAt[sender] + 20);
		}
		finally {
			running.set(false);
			senders.shutdown();
			assertThat(senders.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(failures).isEmpty();
		assertThat(presented).containsExactlyInAnyOrder(TlsClients.x509(this.first.certificatePem()),
				TlsClients.x509(this.second.certificatePem()));
	}

	private static void awaitEach(List<AtomicInteger> answered, IntUnaryOperator count) {
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(IntStream.range(0, answered.size()))
				.allSatisfy((sender) -> assertThat(answered.get(sender))
					.hasValueGreaterThanOrEqualTo(count.applyAsInt(sender))));
	}

	private java.net.http.HttpResponse<String> post(HttpClient client) throws Exception {
		return client.send(TlsClients.post("localhost", this.server.port(), PATH, "{}").build(),
				BodyHandlers.ofString());
	}

	private Certificate postOnNewConnection(SSLContext trusted) throws Exception {
		try (SSLSocket socket = TlsClients.connect(trusted, "127.0.0.1", this.server.port())) {
			byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
			TlsClients.send(socket, TlsClients.postHead(PATH, body.length, "Connection: close"), body);
			RawResponse response = TlsClients.read(socket);
			assertThat(response.status()).isEqualTo(200);
			return socket.getSession().getPeerCertificates()[0];
		}
	}

}
