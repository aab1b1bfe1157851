package dev.kubereconciler.test;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Downloads the envtest binaries (etcd, kube-apiserver, kubectl) of one Kubernetes
 * version from the controller-tools envtest releases, checks the archive's SHA-512
 * against the release index, and unpacks it into setup-envtest's layout: a folder
 * {@code k8s/VERSION-OS-ARCH} of the store.
 *
 * <p>
 * JDK only, so that {@code ./dev setup} runs it as a single source file before anything
 * is built: {@code java EnvtestDownloader.java VERSION STORE [INDEX_URL]}. Nothing is
 * left behind on failure: the archive and the unpacked files live in temporary names
 * beside the target until the checksum matched and every file was written, and the folder
 * is then moved into place in one step.
 */
public final class EnvtestDownloader {

	/** The release index of controller-tools. */
	public static final String DEFAULT_INDEX = "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/"
			+ "HEAD/envtest-releases.yaml";

	private final HttpClient http;

	private final URI index;

	/**
	 * Create a downloader.
	 * @param http the HTTP client
	 * @param index the URL of the release index
	 */
	public EnvtestDownloader(HttpClient http, URI index) {
		this.http = http;
		this.index = index;
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			System.err
				.println("Usage: java EnvtestDownloader.java <kubernetes version, e.g. 1.34.1> <folder> [<index URL>]");
			System.exit(2);
		}
		URI index = URI.create((args.length > 2) ? args[2] : DEFAULT_INDEX);
		HttpClient http = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NORMAL)
			.connectTimeout(Duration.ofSeconds(30))
			.build();
		try {
			Path installed = new EnvtestDownloader(http, index).install(args[0], Path.of(args[1]), os(), arch());
			System.out.println(installed);
		}
		catch (IOException ex) {
			System.err.println("envtest download failed: " + ex.getMessage());
			System.exit(1);
		}
	}

	/**
	 * Install the binaries of a version unless they are there already.
	 * @param version the Kubernetes version, with or without a leading {@code v}
	 * @param directory the setup-envtest folder
	 * @param os {@code linux} or {@code darwin}
	 * @param arch {@code amd64} or {@code arm64}
	 * @return the folder holding {@code etcd} and {@code kube-apiserver}
	 * @throws IOException if the index has no such archive, a download fails, the
	 * checksum does not match, or the archive lacks a binary
	 */
	public Path install(String version, Path directory, String os, String arch) throws IOException {
		String bare = version.startsWith("v") ? version.substring(1) : version;
		Path target = directory.resolve("k8s").resolve(bare + "-" + os + "-" + arch);
		if (Files.isExecutable(target.resolve("kube-apiserver")) && Files.isExecutable(target.resolve("etcd"))) {
			return target;
		}
		String archive = "envtest-v" + bare + "-" + os + "-" + arch + ".tar.gz";
		Release release = find(archive, get(this.index, HttpResponse.BodyHandlers.ofString()));
		Files.createDirectories(target.getParent());
		Path download = Files.createTempFile(target.getParent(), "." + archive, ".part");
		Path unpacked = null;
		try {
			String actual = fetch(URI.create(release.selfLink()), download);
			if (!actual.equalsIgnoreCase(release.hash())) {
				throw new IOException("Checksum mismatch for " + archive + ": the index says SHA-512 " + release.hash()
						+ ", the download has " + actual + "; nothing was installed");
			}
			unpacked = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + ".");
			unpack(download, unpacked);
			for (String binary : List.of("etcd", "kube-apiserver")) {
				if (!Files.isRegularFile(unpacked.resolve(binary))) {
					throw new IOException(archive + " has no " + binary);
				}
			}
			Files.move(unpacked, target, StandardCopyOption.ATOMIC_MOVE);
			unpacked = null;
			return target;
		}
		finally {
			Files.deleteIfExists(download);
			if (unpacked != null) {
				deleteRecursively(unpacked);
			}
		}
	}

	/**
	 * Find an archive's entry in the release index, whose shape is {@code releases:
	 * <version>: <archive>: {hash: <sha512>, selfLink: <url>}}.
	 * @param archive the archive name
	 * @param index the index YAML
	 * @return the entry
	 * @throws IOException if the index has no complete entry for the archive
	 */
	static Release find(String archive, String index) throws IOException {
		List<String> lines = index.lines().toList();
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.trim().equals(archive + ":")) {
				int indent = indent(line);
				String hash = null;
				String selfLink = null;
				for (int j = i + 1; j < lines.size()
						&& (lines.get(j).isBlank() || indent(lines.get(j)) > indent); j++) {
					String field = lines.get(j).trim();
					if (field.startsWith("hash:")) {
						hash = unquote(field.substring("hash:".length()));
					}
					else if (field.startsWith("selfLink:")) {
						selfLink = unquote(field.substring("selfLink:".length()));
					}
				}
				if (hash == null || selfLink == null) {
					throw new IOException(
							"The envtest release index lists " + archive + " without a hash and a selfLink");
				}
				return new Release(hash, selfLink);
			}
		}
		throw new IOException("The envtest release index has no " + archive
				+ "; pick a version it lists, or set KUBEBUILDER_ASSETS to a folder with etcd and kube-apiserver");
	}

	private String fetch(URI uri, Path file) throws IOException {
		try (InputStream body = get(uri, HttpResponse.BodyHandlers.ofInputStream());
				DigestInputStream digesting = new DigestInputStream(body, sha512());
				OutputStream out = Files.newOutputStream(file)) {
			digesting.transferTo(out);
			return HexFormat.of().formatHex(digesting.getMessageDigest().digest());
		}
	}

	private <T> T get(URI uri, HttpResponse.BodyHandler<T> handler) throws IOException {
		try {
			HttpResponse<T> response = this.http
				.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5)).build(), handler);
			if (response.statusCode() != 200) {
				if (response.body() instanceof InputStream stream) {
					stream.close();
				}
				throw new IOException("GET " + uri + " answered " + response.statusCode());
			}
			return response.body();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while downloading " + uri, ex);
		}
	}

	// A POSIX tar reader for regular files: each file goes into the folder by its base
	// name, as the archive's controller-tools/envtest/ prefix is not part of the layout.
	static void unpack(Path archive, Path directory) throws IOException {
		try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(archive)))) {
			byte[] header = new byte[512];
			while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
				String name = text(header, 0, 100);
				String prefix = text(header, 345, 155);
				long size = Long.parseLong(text(header, 124, 12).trim().isEmpty() ? "0" : text(header, 124, 12).trim(),
						8);
				char type = (char) header[156];
				String path = prefix.isEmpty() ? name : prefix + "/" + name;
				String base = path.substring(path.lastIndexOf('/', path.length() - 2) + 1);
				if ((type == '0' || type == 0) && !base.isEmpty() && !base.equals("..") && !base.contains("/")) {
					Path file = directory.resolve(base);
					try (OutputStream out = Files.newOutputStream(file)) {
						copy(in, out, size);
					}
					Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
				}
				else {
					in.skipNBytes(size);
				}
				long padding = (512 - (size % 512)) % 512;
				in.skipNBytes(padding);
			}
		}
	}

	private static void copy(InputStream in, OutputStream out, long size) throws IOException {
		byte[] buffer = new byte[64 * 1024];
		long left = size;
		while (left > 0) {
			int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
			if (read < 0) {
				throw new IOException("The archive ends inside a file");
			}
			out.write(buffer, 0, read);
			left -= read;
		}
	}

	private static String text(byte[] header, int offset, int length) {
		int end = offset;
		while (end < offset + length && header[end] != 0) {
			end++;
		}
		return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
	}

	private static int indent(String line) {
		int indent = 0;
		while (indent < line.length() && line.charAt(indent) == ' ') {
			indent++;
		}
		return indent;
	}

	private static String unquote(String value) {
		String trimmed = value.trim();
		if (trimmed.length() >= 2 && (trimmed.startsWith("\"") || trimmed.startsWith("'"))) {
			return trimmed.substring(1, trimmed.length() - 1);
		}
		return trimmed;
	}

	private static MessageDigest sha512() {
		try {
			return MessageDigest.getInstance("SHA-512");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void deleteRecursively(Path directory) throws IOException {
		try (Stream<Path> paths = Files.walk(directory)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	static String os() {
		String name = System.getProperty("os.name").toLowerCase(Locale.ROOT);
		return name.contains("mac") ? "darwin" : name.contains("win") ? "windows" : "linux";
	}

	static String arch() {
		String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
		return switch (arch) {
			case "x86_64", "amd64" -> "amd64";
			case "aarch64", "arm64" -> "arm64";
			default -> arch;
		};
	}

	/**
	 * One archive's entry in the release index.
	 *
	 * @param hash the SHA-512 of the archive, in hex
	 * @param selfLink where to download it
	 */
	record Release(String hash, String selfLink) {
	}

}
