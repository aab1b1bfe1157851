package dev.kubereconciler.test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The {@code etcd} and {@code kube-apiserver} executables that a
 * {@link KubernetesTestServer} runs, found where controller-runtime's envtest and
 * setup-envtest put them.
 *
 * <p>
 * {@link #discover()} looks, in this order, at:
 * <ol>
 * <li>{@code KUBEBUILDER_ASSETS}: when set, the folder it names must hold both
 * executables, as envtest requires. There is no fallback, so that a wrong value is
 * reported instead of quietly replaced by other binaries.</li>
 * <li>setup-envtest's store,
 * {@code ${XDG_DATA_HOME:-~/.local/share}/kubebuilder-envtest/k8s/*}: the subfolder with
 * the highest version that holds both.</li>
 * <li>{@code ${XDG_CACHE_HOME:-~/.cache}/kube-reconciler/assets}, filled by
 * {@code ./dev setup}: {@code kube-apiserver} from there, {@code etcd} from there or else
 * from {@code PATH}.</li>
 * <li>A download of the envtest release of one Kubernetes version, its SHA-512 checked
 * against controller-tools' release index, into setup-envtest's store, so that the next
 * run finds it there. The system property {@code kube-reconciler.test.envtest.version}
 * picks the version (default 1.34.1), and {@code kube-reconciler.test.envtest.download}
 * set to {@code false} turns the download off.</li>
 * </ol>
 * When none of them has the binaries, a {@link MissingKubernetesTestAssetsException} says
 * how to provide them.
 *
 * @param etcd the etcd executable
 * @param kubeApiServer the kube-apiserver executable
 */
public record KubernetesTestAssets(Path etcd, Path kubeApiServer) {

	/**
	 * The environment variable envtest reads: a folder holding {@code etcd} and
	 * {@code kube-apiserver}.
	 */
	public static final String ASSETS_VARIABLE = "KUBEBUILDER_ASSETS";

	static final String ETCD = "etcd";

	static final String KUBE_APISERVER = "kube-apiserver";

	private static final Pattern VERSION = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)");

	// a folder without a version has an empty one, which sorts below every other
	private static final Comparator<Path> BY_VERSION = Comparator
		.comparing((Path folder) -> version(folder.getFileName().toString()), Arrays::compare)
		.thenComparing((Path folder) -> folder.getFileName().toString());

	public KubernetesTestAssets {
		Objects.requireNonNull(etcd, "etcd must not be null");
		Objects.requireNonNull(kubeApiServer, "kubeApiServer must not be null");
	}

	/**
	 * Find the binaries from this process's environment and home folder.
	 * @return the binaries
	 * @throws MissingKubernetesTestAssetsException if none are found
	 */
	public static KubernetesTestAssets discover() {
		return discover(System.getenv(), home(System.getenv()), EnvtestDownload.fromSystemProperties());
	}

	/**
	 * Find the binaries from the given environment and home folder, or else download
	 * them.
	 * @param environment the environment variables
	 * @param home the user's home folder
	 * @param download the download to try last, or {@code null} for none
	 * @return the binaries
	 * @throws MissingKubernetesTestAssetsException if none are found and the download
	 * fails, naming both reasons
	 */
	static KubernetesTestAssets discover(Map<String, String> environment, Path home,
			@Nullable EnvtestDownload download) {
		try {
			return discover(environment, home);
		}
		catch (MissingKubernetesTestAssetsException ex) {
			if (download == null || hasText(environment.get(ASSETS_VARIABLE))) {
				// a wrong KUBEBUILDER_ASSETS is reported, not replaced by a download
				throw ex;
			}
			Path store = xdgFolder(environment, "XDG_DATA_HOME", home, ".local/share").resolve("kubebuilder-envtest");
			try {
				Path folder = download.install(store);
				return new KubernetesTestAssets(folder.resolve(ETCD), folder.resolve(KUBE_APISERVER));
			}
			catch (IOException | RuntimeException failure) {
				throw new MissingKubernetesTestAssetsException(ex.getMessage() + " Then " + download.description()
						+ " failed: " + failure.getMessage() + ". Set -D" + EnvtestDownload.VERSION_PROPERTY
						+ " to another version, or -D" + EnvtestDownload.ENABLED_PROPERTY
						+ "=false to look only where the binaries may already be.");
			}
		}
	}

	private static boolean hasText(@Nullable String value) {
		return value != null && !value.isBlank();
	}

	/**
	 * Return the home folder as setup-envtest and {@code ./dev} see it: {@code HOME},
	 * which may differ from Java's {@code user.home} (taken from the password database).
	 * @param environment the environment variables
	 * @return the home folder
	 */
	static Path home(Map<String, String> environment) {
		String home = environment.get("HOME");
		return (home != null && !home.isBlank()) ? Path.of(home) : Path.of(System.getProperty("user.home"));
	}

	/**
	 * Find the binaries from the given environment and home folder.
	 * @param environment the environment variables ({@code KUBEBUILDER_ASSETS},
	 * {@code XDG_DATA_HOME}, {@code XDG_CACHE_HOME}, {@code PATH})
	 * @param home the user's home folder
	 * @return the binaries
	 * @throws MissingKubernetesTestAssetsException if none are found
	 */
	public static KubernetesTestAssets discover(Map<String, String> environment, Path home) {
		String setup = setupCommand(environment);
		String assets = environment.get(ASSETS_VARIABLE);
		if (assets != null && !assets.isBlank()) {
			return inFolder(Path.of(assets), ASSETS_VARIABLE + "=" + assets, setup);
		}
		Path store = xdgFolder(environment, "XDG_DATA_HOME", home, ".local/share").resolve("kubebuilder-envtest/k8s");
		Optional<Path> newest = subfolders(store).filter((folder) -> missingIn(folder).isEmpty()).max(BY_VERSION);
		if (newest.isPresent()) {
			return new KubernetesTestAssets(newest.get().resolve(ETCD), newest.get().resolve(KUBE_APISERVER));
		}
		Path cache = xdgFolder(environment, "XDG_CACHE_HOME", home, ".cache").resolve("kube-reconciler/assets");
		String notInStore = "KUBEBUILDER_ASSETS is not set, no folder in " + store + " holds both, and ";
		Path kubeApiServer = cache.resolve(KUBE_APISERVER);
		if (!isExecutable(kubeApiServer)) {
			throw missing(notInStore + cache + " has no executable kube-apiserver", setup);
		}
		Optional<Path> etcd = Optional.of(cache.resolve(ETCD))
			.filter(KubernetesTestAssets::isExecutable)
			.or(() -> onPath(environment.get("PATH"), ETCD));
		return etcd.map((found) -> new KubernetesTestAssets(found, kubeApiServer))
			.orElseThrow(() -> missing(notInStore + "no executable etcd is in " + cache + " or on PATH", setup));
	}

	/**
	 * Take both binaries from one folder, as {@code KUBEBUILDER_ASSETS} names it.
	 * @param folder the folder holding {@code etcd} and {@code kube-apiserver}
	 * @return the binaries
	 * @throws MissingKubernetesTestAssetsException if either is missing or not executable
	 */
	public static KubernetesTestAssets fromFolder(Path folder) {
		return inFolder(folder, folder.toString(), setupCommand(System.getenv()));
	}

	private static KubernetesTestAssets inFolder(Path folder, String description, String setup) {
		List<String> missing = missingIn(folder);
		if (!missing.isEmpty()) {
			throw missing(description + " has no executable " + String.join(" or ", missing), setup);
		}
		return new KubernetesTestAssets(folder.resolve(ETCD), folder.resolve(KUBE_APISERVER));
	}

	private static List<String> missingIn(Path folder) {
		List<String> missing = new ArrayList<>();
		for (String name : List.of(ETCD, KUBE_APISERVER)) {
			if (!isExecutable(folder.resolve(name))) {
				missing.add(name);
			}
		}
		return missing;
	}

	private static MissingKubernetesTestAssetsException missing(String reason, String setup) {
		return new MissingKubernetesTestAssetsException("No etcd and kube-apiserver for the Kubernetes test server: "
				+ reason + ". Either run " + setup + " (it installs etcd and unpacks the test kube-apiserver into "
				+ "${XDG_CACHE_HOME:-~/.cache}/kube-reconciler/assets), or set KUBEBUILDER_ASSETS to a folder "
				+ "holding executable etcd and kube-apiserver, such as the one 'setup-envtest use -p path' prints.");
	}

	// Whoever sets KUBE_RECONCILER_REPO_ROOT to a checkout gets the exact script named;
	// the build itself passes nothing to test JVMs.
	private static String setupCommand(Map<String, String> environment) {
		String root = environment.get("KUBE_RECONCILER_REPO_ROOT");
		return (root != null && !root.isBlank()) ? "'" + Path.of(root, "dev") + " setup'"
				: "'./dev setup' in the kube-reconciler checkout";
	}

	private static Path xdgFolder(Map<String, String> environment, String variable, Path home, String fallback) {
		String value = environment.get(variable);
		// the XDG spec says relative values are invalid and to be ignored
		return (value != null && value.startsWith("/")) ? Path.of(value) : home.resolve(fallback);
	}

	private static Stream<Path> subfolders(Path folder) {
		if (!Files.isDirectory(folder)) {
			return Stream.empty();
		}
		try (Stream<Path> children = Files.list(folder)) {
			return children.filter(Files::isDirectory).toList().stream();
		}
		catch (IOException ex) {
			return Stream.empty();
		}
	}

	private static Optional<Path> onPath(@Nullable String path, String name) {
		if (path == null) {
			return Optional.empty();
		}
		return Stream.of(path.split(File.pathSeparator))
			.filter((entry) -> !entry.isEmpty())
			.map((entry) -> Path.of(entry, name))
			.filter(KubernetesTestAssets::isExecutable)
			.findFirst();
	}

	private static boolean isExecutable(Path file) {
		return Files.isRegularFile(file) && Files.isExecutable(file);
	}

	private static int[] version(String name) {
		Matcher matcher = VERSION.matcher(name);
		if (!matcher.find()) {
			return new int[0];
		}
		return new int[] { Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
				Integer.parseInt(matcher.group(3)) };
	}

}
