package dev.kubereconciler.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for {@link EnvtestDownloader} against an HTTP server on loopback that serves a
 * release index and an archive made here; nothing reaches the internet.
 */
class EnvtestDownloaderTests {

	private static final String ARCHIVE = "envtest-v1.99.0-linux-amd64.tar.gz";

	@TempDir
	Path directory;

	private HttpServer server;

	private final List<String> requested = new CopyOnWriteArrayList<>();

	private byte[] archive;

	private String index;

	@BeforeEach
	void serve() throws Exception {
		this.archive = tarGz(
				Map.of("controller-tools/envtest/etcd", "etcd binary", "controller-tools/envtest/kube-apiserver",
						"kube-apiserver binary", "controller-tools/envtest/kubectl", "kubectl binary"));
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String path = exchange.getRequestURI().getPath();
			this.requested.add(path);
			byte[] body = path.equals("/envtest-releases.yaml") ? this.index.getBytes(StandardCharsets.UTF_8)
					: path.equals("/download/" + ARCHIVE) ? this.archive : null;
			if (body == null) {
				exchange.sendResponseHeaders(404, -1);
			}
			else {
				exchange.sendResponseHeaders(200, body.length);
				exchange.getResponseBody().write(body);
			}
			exchange.close();
		});
		this.server.start();
		this.index = index(sha512(this.archive));
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void downloadsChecksAndUnpacksIntoTheSetupEnvtestLayout() throws IOException {
		Path installed = downloader().install("1.99.0", this.directory, "linux", "amd64");
		assertThat(installed).isEqualTo(this.directory.resolve("k8s/1.99.0-linux-amd64"));
		assertThat(installed.resolve("kube-apiserver")).isExecutable().hasContent("kube-apiserver binary");
		assertThat(installed.resolve("etcd")).isExecutable().hasContent("etcd binary");
		assertThat(installed.resolve("kubectl")).isExecutable();
		// nothing but the installed version is left in the folder
		assertThat(list(this.directory.resolve("k8s"))).containsExactly(installed);
		// a second run finds the binaries and asks the server nothing
		this.requested.clear();
		assertThat(downloader().install("v1.99.0", this.directory, "linux", "amd64")).isEqualTo(installed);
		assertThat(this.requested).isEmpty();
	}

	@Test
	void aChecksumMismatchIsRefusedAndLeavesNothingBehind() throws Exception {
		this.index = index(sha512("something else".getBytes(StandardCharsets.UTF_8)));
		assertThatIOException().isThrownBy(() -> downloader().install("1.99.0", this.directory, "linux", "amd64"))
			.withMessageContaining("Checksum mismatch for " + ARCHIVE)
			.withMessageContaining(sha512(this.archive));
		assertThat(this.requested).contains("/download/" + ARCHIVE);
		assertThat(list(this.directory.resolve("k8s"))).isEmpty();
	}

	@Test
	void aVersionMissingFromTheIndexIsNamed() {
		assertThatIOException().isThrownBy(() -> downloader().install("1.98.0", this.directory, "linux", "amd64"))
			.withMessageContaining("has no envtest-v1.98.0-linux-amd64.tar.gz");
	}

	private EnvtestDownloader downloader() {
		return new EnvtestDownloader(HttpClient.newHttpClient(), base().resolve("/envtest-releases.yaml"));
	}

	private URI base() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	private String index(String hash) {
		return "releases:\n  v1.99.0:\n    envtest-v1.99.0-darwin-arm64.tar.gz:\n      hash: 00\n" + "      selfLink: "
				+ base() + "/download/envtest-v1.99.0-darwin-arm64.tar.gz\n" + "    " + ARCHIVE + ":\n      hash: "
				+ hash + "\n      selfLink: " + base() + "/download/" + ARCHIVE + "\n";
	}

	private static List<Path> list(Path folder) throws IOException {
		try (Stream<Path> files = Files.list(folder)) {
			return files.toList();
		}
	}

	private static String sha512(byte[] bytes) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(bytes));
	}

	// a minimal ustar writer, so that the test owns every byte of its archive
	private static byte[] tarGz(Map<String, String> files) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
			for (Map.Entry<String, String> file : files.entrySet()) {
				byte[] content = file.getValue().getBytes(StandardCharsets.UTF_8);
				byte[] header = new byte[512];
				put(header, 0, file.getKey());
				put(header, 100, "0000755");
				put(header, 108, "0000000");
				put(header, 116, "0000000");
				put(header, 124, String.format("%011o", content.length));
				put(header, 136, "00000000000");
				header[156] = '0';
				put(header, 257, "ustar");
				put(header, 263, "00");
				java.util.Arrays.fill(header, 148, 156, (byte) ' ');
				int sum = 0;
				for (byte b : header) {
					sum += b & 0xff;
				}
				put(header, 148, String.format("%06o", sum));
				header[154] = 0;
				gzip.write(header);
				gzip.write(content);
				gzip.write(new byte[(512 - content.length % 512) % 512]);
			}
			gzip.write(new byte[1024]);
		}
		return bytes.toByteArray();
	}

	private static void put(byte[] header, int offset, String value) {
		byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(bytes, 0, header, offset, bytes.length);
	}

}
