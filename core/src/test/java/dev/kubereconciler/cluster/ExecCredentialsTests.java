package dev.kubereconciler.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Real exec plugins, small shell scripts, as the credential of a cluster: what they are
 * given, what they print, and how they fail.
 */
class ExecCredentialsTests {

	private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T20:00:00Z"), ZoneOffset.UTC);

	@TempDir
	Path folder;

	@Test
	void aTokenWithoutExpiryIsKeptAndThePluginGetsTheEnvironmentItWasGiven() throws Exception {
		Path plugin = script("echo run >> \"$RUNS\"",
				"echo '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"kind\":\"ExecCredential\","
						+ "\"status\":{\"token\":\"abc\"}}'");
		ExecCredentials credentials = credentials(new ExecPlugin(plugin.toString(), List.of(),
				Map.of("RUNS", this.folder.resolve("runs").toString()), ExecPlugin.V1BETA1, false),
				Duration.ofSeconds(30));
		assertThat(credentials.current().token()).isEqualTo("abc");
		assertThat(credentials.current().renewAt()).isEqualTo(Instant.MAX);
		assertThat(Files.readAllLines(this.folder.resolve("runs"))).hasSize(1);
	}

	@Test
	void aCredentialIsRenewedTenSecondsBeforeItExpires() throws Exception {
		Path plugin = script("echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
				+ "\"status\":{\"token\":\"abc\",\"expirationTimestamp\":\"2026-11-27T21:00:00Z\"}}'");
		ExecCredentials credentials = credentials(ExecPlugin.of(plugin.toString()), Duration.ofSeconds(30));
		assertThat(credentials.current().renewAt()).isEqualTo(Instant.parse("2026-11-27T20:59:50Z"));
	}

	@Test
	void aFailingPluginsExitCodeAndStderrAreInTheError() throws Exception {
		Path plugin = script("echo 'token expired, run vault login' >&2", "exit 4");
		assertThatExceptionOfType(ExecCredentials.ExecPluginException.class)
			.isThrownBy(() -> credentials(ExecPlugin.of(plugin.toString()), Duration.ofSeconds(30)).current())
			.withMessageContaining("of access provider 'vault' for cluster 'east' exited with 4: "
					+ "token expired, run vault login; fix the plugin");
	}

	@Test
	void aPluginPastTheTimeoutIsStopped() throws Exception {
		Path plugin = script("echo waiting >&2", "exec sleep 600");
		assertThatExceptionOfType(ExecCredentials.ExecPluginException.class)
			.isThrownBy(() -> credentials(ExecPlugin.of(plugin.toString()), Duration.ofMillis(500)).current())
			.withMessageContaining("did not finish within 500 ms and was stopped");
	}

	@Test
	void aPluginPrintingNoCredentialIsRefused() throws Exception {
		Path plugin = script("echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
				+ "\"status\":{\"clientCertificateData\":\"-----BEGIN CERTIFICATE-----\"}}'");
		assertThatExceptionOfType(ExecCredentials.ExecPluginException.class)
			.isThrownBy(() -> credentials(ExecPlugin.of(plugin.toString()), Duration.ofSeconds(30)).current())
			.withMessageContaining("neither a token nor both clientCertificateData and clientKeyData");
	}

	@Test
	void aMissingPluginIsNamed() {
		assertThatExceptionOfType(ExecCredentials.ExecPluginException.class)
			.isThrownBy(
					() -> credentials(ExecPlugin.of(this.folder.resolve("absent").toString()), Duration.ofSeconds(30))
						.current())
			.withMessageContaining("could not be started");
	}

	private ExecCredentials credentials(ExecPlugin plugin, Duration timeout) {
		return new ExecCredentials("east", "vault", plugin, "{}", timeout, CLOCK);
	}

	private Path script(String... lines) throws Exception {
		Path file = this.folder.resolve("plugin.sh");
		Files.writeString(file, "#!/bin/sh\n" + String.join("\n", lines) + "\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
		return file;
	}

}
