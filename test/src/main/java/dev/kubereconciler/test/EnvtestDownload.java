package dev.kubereconciler.test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The last place the test server's binaries come from: a checksum-verified download of
 * the envtest release of one Kubernetes version, into setup-envtest's store, where later
 * runs find it without downloading again.
 *
 * <p>
 * System properties choose it: {@value #VERSION_PROPERTY} (default
 * {@value #DEFAULT_VERSION}) and {@value #ENABLED_PROPERTY} ({@code false} turns the
 * download off, for builds that must not reach the network).
 */
@FunctionalInterface
interface EnvtestDownload {

	/** The system property that names the Kubernetes version to download. */
	String VERSION_PROPERTY = "kube-reconciler.test.envtest.version";

	/** The system property that turns the download off when {@code false}. */
	String ENABLED_PROPERTY = "kube-reconciler.test.envtest.download";

	/** The version downloaded when no property names one; {@code ./dev setup}'s too. */
	String DEFAULT_VERSION = "1.34.1";

	/**
	 * Install the binaries into a setup-envtest store, unless they are there already.
	 * @param store the store,
	 * {@code ${XDG_DATA_HOME:-~/.local/share}/kubebuilder-envtest}
	 * @return the folder holding {@code etcd} and {@code kube-apiserver}
	 * @throws IOException if the download or its check fails
	 */
	Path install(Path store) throws IOException;

	/**
	 * Describe what is downloaded, for messages.
	 * @return the description
	 */
	default String description() {
		return "the envtest download";
	}

	/**
	 * Return the download the system properties ask for.
	 * @return the download, or {@code null} when it is turned off
	 */
	static @Nullable EnvtestDownload fromSystemProperties() {
		if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY))) {
			return null;
		}
		String version = System.getProperty(VERSION_PROPERTY, DEFAULT_VERSION);
		HttpClient http = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NORMAL)
			.connectTimeout(Duration.ofSeconds(30))
			.build();
		EnvtestDownloader downloader = new EnvtestDownloader(http, URI.create(EnvtestDownloader.DEFAULT_INDEX));
		return new EnvtestDownload() {

			@Override
			public Path install(Path store) throws IOException {
				return downloader.install(version, store, EnvtestDownloader.os(), EnvtestDownloader.arch());
			}

			@Override
			public String description() {
				return "the envtest download of Kubernetes " + version + " (" + VERSION_PROPERTY + ")";
			}

		};
	}

}
