package dev.kubereconciler.webhook.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The self-check against a real {@link WebhookServer}: it passes only when the server
 * answers over TLS with a certificate the given CA bundle signed.
 */
class WebhookSelfCheckTests {

	private static final SelfSignedCertificate CERTIFICATE = SelfSignedCertificate.generate();

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final WebhookServer server = WebhookServer.builder(CERTIFICATE.sslContext())
		.address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
		.endpoints(Map.of())
		.threads(1, Thread::new)
		.build();

	@AfterEach
	void stop() {
		this.server.stop(Duration.ZERO);
	}

	@Test
	void passesWhenTheServerPresentsACertificateOfItsCaBundle() throws InterruptedException {
		this.server.start();
		assertThat(WebhookSelfCheck.trusting(CERTIFICATE.caBundle()).passes(this.server.port(), TIMEOUT)).isTrue();
	}

	@Test
	void failsWhenTheCertificateIsNotSignedByTheCaBundle() throws InterruptedException {
		this.server.start();
		byte[] otherCa = SelfSignedCertificate.generate().caBundle();
		assertThat(WebhookSelfCheck.trusting(otherCa).passes(this.server.port(), TIMEOUT)).isFalse();
	}

	@Test
	void failsWhenNothingListens() throws InterruptedException {
		this.server.start();
		int port = this.server.port();
		this.server.stop(Duration.ZERO);
		assertThat(WebhookSelfCheck.trusting(CERTIFICATE.caBundle()).passes(port, TIMEOUT)).isFalse();
	}

	@Test
	void asksAServerBoundToOneAddressAtThatAddress() throws Exception {
		// a pod's webhook server bound to the pod IP answers nothing on 127.0.0.1
		WebhookServer bound = WebhookServer.builder(CERTIFICATE.sslContext())
			.address(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0))
			.endpoints(Map.of())
			.threads(1, Thread::new)
			.build();
		bound.start();
		try {
			WebhookSelfCheck check = WebhookSelfCheck.trusting(CERTIFICATE.caBundle());
			assertThat(check.passes(new InetSocketAddress(bound.address().getAddress(), bound.port()), TIMEOUT))
				.isTrue();
			assertThat(check.passes(bound.port(), TIMEOUT)).isFalse();
		}
		finally {
			bound.stop(Duration.ZERO);
		}
	}

	@Test
	void refusesABundleWithNoCertificate() {
		assertThatIllegalArgumentException().isThrownBy(() -> WebhookSelfCheck.trusting(new byte[0]))
			.withMessageContaining("CA bundle");
	}

}
