package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1HTTPHeader;
import io.kubernetes.client.openapi.models.V1Probe;
import org.jspecify.annotations.Nullable;

/**
 * One of a container's probes with the kubelet's counting: the first attempt after
 * {@code initialDelaySeconds}, one every {@code periodSeconds} (or the runner's faster
 * period), and a change of outcome only after {@code successThreshold} successes or
 * {@code failureThreshold} failures in a row.
 */
final class ProbeRunner {

	private final String kind;

	private final V1Probe probe;

	private final V1Container container;

	private final String host;

	private final Duration period;

	private Instant due;

	private final Duration declaredPeriod;

	private @Nullable Instant lastCountedFailure;

	private int successes;

	private int failures;

	private @Nullable Boolean passing;

	private String lastFailure = "";

	ProbeRunner(String kind, V1Probe probe, V1Container container, String host, @Nullable Duration period,
			Instant started) {
		this.kind = kind;
		this.probe = probe;
		this.container = container;
		this.host = host;
		this.declaredPeriod = Duration.ofSeconds(Objects.requireNonNullElse(probe.getPeriodSeconds(), 10));
		this.period = (period != null) ? period : this.declaredPeriod;
		this.due = started.plusSeconds(Objects.requireNonNullElse(probe.getInitialDelaySeconds(), 0));
		if (probe.getExec() != null || probe.getGrpc() != null) {
			throw new IllegalArgumentException("Container '" + container.getName() + "': the " + kind
					+ " probe uses exec or grpc, which the runner does not run; use httpGet or tcpSocket");
		}
	}

	/**
	 * Probe if due.
	 * @param now the clock's time
	 * @return the outcome after this attempt: {@code null} while undecided, then whether
	 * the probe passes by its thresholds
	 */
	@Nullable Boolean tick(Instant now) {
		if (now.isBefore(this.due)) {
			return this.passing;
		}
		this.due = now.plus(this.period);
		if (attempt()) {
			this.failures = 0;
			this.lastFailure = "";
			if (++this.successes >= Objects.requireNonNullElse(this.probe.getSuccessThreshold(), 1)) {
				this.passing = true;
			}
		}
		else if (this.lastCountedFailure == null || !now.isBefore(this.lastCountedFailure.plus(this.declaredPeriod))) {
			// Probed faster than declared, failures still count once per periodSeconds,
			// so that failureThreshold gives the application as long as in a cluster.
			this.lastCountedFailure = now;
			this.successes = 0;
			if (++this.failures >= Objects.requireNonNullElse(this.probe.getFailureThreshold(), 3)) {
				this.passing = false;
			}
		}
		return this.passing;
	}

	void reset(Instant started) {
		this.due = started.plusSeconds(Objects.requireNonNullElse(this.probe.getInitialDelaySeconds(), 0));
		this.successes = 0;
		this.failures = 0;
		this.lastCountedFailure = null;
		this.lastFailure = "";
		this.passing = null;
	}

	String describe() {
		return this.kind + " probe " + target()
				+ ((this.lastFailure.isEmpty()) ? ""
						: " failed " + this.failures + " of "
								+ Objects.requireNonNullElse(this.probe.getFailureThreshold(), 3) + " times, last: "
								+ this.lastFailure);
	}

	private String target() {
		if (this.probe.getHttpGet() != null) {
			return Objects.requireNonNullElse(this.probe.getHttpGet().getScheme(), "HTTP") + " GET " + this.host + ":"
					+ port(this.probe.getHttpGet().getPort()) + this.probe.getHttpGet().getPath();
		}
		return "TCP " + this.host + ":" + port(Objects.requireNonNull(this.probe.getTcpSocket()).getPort());
	}

	private boolean attempt() {
		int timeout = (int) Duration.ofSeconds(Objects.requireNonNullElse(this.probe.getTimeoutSeconds(), 1))
			.toMillis();
		try {
			if (this.probe.getHttpGet() != null) {
				return httpGet(timeout);
			}
			if (this.probe.getTcpSocket() != null) {
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress(host(this.probe.getTcpSocket().getHost()),
							port(this.probe.getTcpSocket().getPort())), timeout);
					return true;
				}
			}
			return true;
		}
		catch (IOException | RuntimeException ex) {
			this.lastFailure = ex.toString();
			return false;
		}
	}

	private boolean httpGet(int timeout) throws IOException {
		var get = Objects.requireNonNull(this.probe.getHttpGet());
		boolean https = "HTTPS".equalsIgnoreCase(get.getScheme());
		URI uri = URI.create(((https) ? "https" : "http") + "://" + host(get.getHost()) + ":" + port(get.getPort())
				+ Objects.requireNonNullElse(get.getPath(), "/"));
		HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
		try {
			if (connection instanceof HttpsURLConnection secure) {
				// the kubelet does not verify the certificate of an HTTPS probe either
				secure.setSSLSocketFactory(trustingContext().getSocketFactory());
				secure.setHostnameVerifier((name, session) -> true);
			}
			connection.setConnectTimeout(timeout);
			connection.setReadTimeout(timeout);
			connection.setInstanceFollowRedirects(false);
			connection.setRequestProperty("User-Agent", "kube-probe/1.36");
			for (V1HTTPHeader header : Objects.requireNonNullElse(get.getHttpHeaders(), List.<V1HTTPHeader>of())) {
				connection.setRequestProperty(header.getName(), header.getValue());
			}
			int status = connection.getResponseCode();
			if (status >= 200 && status < 400) {
				return true;
			}
			this.lastFailure = "HTTP probe failed with statuscode: " + status;
			return false;
		}
		finally {
			connection.disconnect();
		}
	}

	private String host(@Nullable String host) {
		return (host != null && !host.isEmpty()) ? host : this.host;
	}

	int port(IntOrString port) {
		if (port.isInteger()) {
			return port.getIntValue();
		}
		return Objects.requireNonNullElse(this.container.getPorts(), List.<V1ContainerPort>of())
			.stream()
			.filter((candidate) -> port.getStrValue().equals(candidate.getName()))
			.map(V1ContainerPort::getContainerPort)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"Container '" + this.container.getName() + "': the " + this.kind + " probe names the port '"
							+ port.getStrValue() + "', which the container does not declare"));
	}

	private static SSLContext trustingContext() {
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, new TrustManager[] { new X509TrustManager() {

				@Override
				public void checkClientTrusted(X509Certificate[] chain, String authType) {
				}

				@Override
				public void checkServerTrusted(X509Certificate[] chain, String authType) {
				}

				@Override
				public X509Certificate[] getAcceptedIssuers() {
					return new X509Certificate[0];
				}

			} }, new SecureRandom());
			return context;
		}
		catch (java.security.GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
