package dev.kubereconciler.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * The credential of one engaged cluster, from its access provider's exec plugin: run when
 * first needed, kept until shortly before its {@code expirationTimestamp}, and run again
 * then or after the server answered 401 to it, as client-go's exec authenticator does. As
 * an OkHttp interceptor it puts the token on every request.
 */
final class ExecCredentials implements Interceptor {

	// a credential is renewed this long before it expires (or at half its life, if that
	// is shorter), so that no request reaches the server with one that just expired
	private static final Duration RENEW_AHEAD = Duration.ofSeconds(10);

	private static final int STDERR_LIMIT = 2000;

	private final String cluster;

	private final String provider;

	private final ExecPlugin plugin;

	private final String execInfo;

	private final Duration timeout;

	private final Clock clock;

	private @Nullable Credential current;

	private Runnable newCertificate = () -> {
	};

	ExecCredentials(String cluster, String provider, ExecPlugin plugin, String execInfo, Duration timeout,
			Clock clock) {
		this.cluster = cluster;
		this.provider = provider;
		this.plugin = plugin;
		this.execInfo = execInfo;
		this.timeout = timeout;
		this.clock = clock;
	}

	/**
	 * Return the credential to use now, running the plugin when there is none or it is
	 * due for renewal.
	 * @return the credential
	 * @throws ExecPluginException if the plugin fails, times out or prints no credential
	 */
	synchronized Credential current() {
		Credential credential = this.current;
		Instant now = this.clock.instant();
		if (credential == null || !now.isBefore(credential.renewAt())) {
			Credential renewed = parse(run(), now);
			this.current = renewed;
			if (credential != null && renewed.certificate() != null
					&& !renewed.certificate().equals(credential.certificate())) {
				this.newCertificate.run();
			}
			credential = renewed;
		}
		return credential;
	}

	/**
	 * Call an action when the plugin printed another client certificate, so that the
	 * client's next connections present it: a connection keeps the certificate it was
	 * opened with.
	 * @param action what to call, under this object's lock
	 */
	synchronized void onNewCertificate(Runnable action) {
		this.newCertificate = action;
	}

	// the server refused the credential: the next request runs the plugin again, unless
	// another request already did
	private synchronized void refused(Credential credential) {
		if (this.current == credential) {
			this.current = null;
		}
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Credential credential;
		try {
			credential = current();
		}
		catch (ExecPluginException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
		if (credential.token() == null) {
			return chain.proceed(chain.request());
		}
		Response response = chain
			.proceed(chain.request().newBuilder().header("Authorization", "Bearer " + credential.token()).build());
		if (response.code() == 401) {
			refused(credential);
		}
		return response;
	}

	private String run() {
		List<String> command = new ArrayList<>();
		command.add(this.plugin.command());
		command.addAll(this.plugin.args());
		ProcessBuilder builder = new ProcessBuilder(command);
		builder.environment().putAll(this.plugin.env());
		builder.environment().put("KUBERNETES_EXEC_INFO", this.execInfo);
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw failure("could not be started: " + ex.getMessage(), ex);
		}
		// never interactive: it reads nothing
		try {
			process.getOutputStream().close();
		}
		catch (IOException ex) {
			// it exited already; its exit code tells
		}
		// stop it at the timeout; its stdout then ends, and so does the read below
		CompletableFuture<Process> exited = process.onExit().orTimeout(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		exited.whenComplete((done, ex) -> {
			if (ex != null) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
			}
		});
		try (InputStream stdout = process.getInputStream(); InputStream stderr = process.getErrorStream()) {
			String output = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
			String errors = new String(stderr.readNBytes(STDERR_LIMIT), StandardCharsets.UTF_8).strip();
			int exit = process.waitFor();
			if (exited.isCompletedExceptionally()) {
				throw failure(stopped() + stderr(errors), null);
			}
			if (exit != 0) {
				throw failure("exited with " + exit + stderr(errors), null);
			}
			return output;
		}
		catch (IOException ex) {
			// stopping a process closes its streams, and what it wrote is lost
			throw failure(exited.isCompletedExceptionally() ? stopped() : "could not be read: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
			throw failure("was interrupted", ex);
		}
	}

	private String stopped() {
		String within = (this.timeout.toMillis() % 1000 == 0) ? this.timeout.toSeconds() + " s"
				: this.timeout.toMillis() + " ms";
		return "did not finish within " + within + " and was stopped";
	}

	private static String stderr(String errors) {
		return errors.isEmpty() ? " and wrote nothing to stderr" : ": " + errors;
	}

	private Credential parse(String output, Instant now) {
		JsonObject status;
		try {
			JsonObject credential = JsonParser.parseString(output).getAsJsonObject();
			if (!"ExecCredential".equals(text(credential, "kind"))
					|| !this.plugin.apiVersion().equals(text(credential, "apiVersion"))) {
				throw failure("printed no " + this.plugin.apiVersion() + " ExecCredential on stdout", null);
			}
			JsonElement element = credential.get("status");
			if (element == null || !element.isJsonObject()) {
				throw failure("printed an ExecCredential without a status", null);
			}
			status = element.getAsJsonObject();
		}
		catch (JsonParseException | IllegalStateException ex) {
			throw failure("printed no JSON ExecCredential on stdout: " + ex.getMessage(), ex);
		}
		String token = text(status, "token");
		String certificate = text(status, "clientCertificateData");
		String key = text(status, "clientKeyData");
		if ((certificate == null) != (key == null) || (token == null && certificate == null)) {
			throw failure("printed an ExecCredential with neither a token nor both clientCertificateData and "
					+ "clientKeyData", null);
		}
		String expiration = text(status, "expirationTimestamp");
		Instant renewAt = Instant.MAX;
		if (expiration != null) {
			try {
				Instant expiry = OffsetDateTime.parse(expiration).toInstant();
				Duration life = Duration.between(now, expiry);
				Duration ahead = (life.compareTo(RENEW_AHEAD.multipliedBy(2)) < 0) ? life.dividedBy(2) : RENEW_AHEAD;
				renewAt = expiry.minus(ahead.isNegative() ? Duration.ZERO : ahead);
			}
			catch (DateTimeParseException ex) {
				throw failure("printed an expirationTimestamp that is not RFC 3339: " + expiration, ex);
			}
		}
		return new Credential(token, certificate, key, renewAt);
	}

	private static @Nullable String text(JsonObject object, String name) {
		JsonElement element = object.get(name);
		return (element != null && element.isJsonPrimitive() && !element.getAsString().isEmpty())
				? element.getAsString() : null;
	}

	private ExecPluginException failure(String what, @Nullable Throwable cause) {
		return new ExecPluginException("The exec plugin '" + this.plugin.command() + "' of access provider '"
				+ this.provider + "' for cluster '" + this.cluster + "' " + what
				+ "; fix the plugin or the access provider's execConfig", cause);
	}

	/**
	 * A credential the plugin printed.
	 *
	 * @param token the bearer token, or {@code null}
	 * @param certificate the client certificate, PEM, or {@code null}
	 * @param key the client key, PEM, or {@code null}
	 * @param renewAt when the plugin runs again: shortly before the credential expires,
	 * or never
	 */
	record Credential(@Nullable String token, @Nullable String certificate, @Nullable String key, Instant renewAt) {
	}

	/**
	 * An exec plugin that gave no credential, with its exit code and stderr.
	 */
	static final class ExecPluginException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		ExecPluginException(String message, @Nullable Throwable cause) {
			super(message, cause);
		}

	}

}
