package dev.kubereconciler.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubernetesTestAssets}: where the binaries are looked for, in which
 * order, and what is said when they are missing.
 */
class KubernetesTestAssetsTests {

	@TempDir
	Path root;

	private final Map<String, String> environment = new HashMap<>();

	@Test
	void kubebuilderAssetsWinsOverTheEnvtestStoreAndTheCache() throws IOException {
		Path assets = bothIn(this.root.resolve("assets"));
		bothIn(home().resolve(".local/share/kubebuilder-envtest/k8s/1.30.0-linux-amd64"));
		bothIn(home().resolve(".cache/kube-reconciler/assets"));
		this.environment.put("KUBEBUILDER_ASSETS", assets.toString());
		assertThat(discover())
			.isEqualTo(new KubernetesTestAssets(assets.resolve("etcd"), assets.resolve("kube-apiserver")));
	}

	@Test
	void kubebuilderAssetsMissingABinaryIsReportedRatherThanFallenBackFrom() throws IOException {
		Path assets = executable(this.root.resolve("assets/kube-apiserver")).getParent();
		bothIn(home().resolve(".cache/kube-reconciler/assets"));
		this.environment.put("KUBEBUILDER_ASSETS", assets.toString());
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class).isThrownBy(this::discover)
			.withMessageContaining("KUBEBUILDER_ASSETS=" + assets + " has no executable etcd.")
			.withMessageContaining("./dev setup")
			.withMessageContaining("setup-envtest use -p path");
	}

	@Test
	void blankKubebuilderAssetsCountsAsUnset() throws IOException {
		Path cache = bothIn(home().resolve(".cache/kube-reconciler/assets"));
		this.environment.put("KUBEBUILDER_ASSETS", " ");
		assertThat(discover().kubeApiServer()).isEqualTo(cache.resolve("kube-apiserver"));
	}

	@Test
	void envtestStoreWinsOverTheCache() throws IOException {
		Path store = bothIn(home().resolve(".local/share/kubebuilder-envtest/k8s/1.30.0-linux-amd64"));
		bothIn(home().resolve(".cache/kube-reconciler/assets"));
		assertThat(discover())
			.isEqualTo(new KubernetesTestAssets(store.resolve("etcd"), store.resolve("kube-apiserver")));
	}

	@Test
	void envtestStorePicksTheHighestVersionThatHoldsBoth() throws IOException {
		Path k8s = home().resolve(".local/share/kubebuilder-envtest/k8s");
		bothIn(k8s.resolve("1.9.0-linux-amd64"));
		Path newest = bothIn(k8s.resolve("1.30.2-linux-amd64"));
		bothIn(k8s.resolve("1.30.10-linux-amd64").resolve("nested"));
		executable(k8s.resolve("1.31.0-linux-amd64/kube-apiserver"));
		bothIn(k8s.resolve("unversioned"));
		assertThat(discover().kubeApiServer()).isEqualTo(newest.resolve("kube-apiserver"));
	}

	@Test
	void envtestStoreFollowsXdgDataHome() throws IOException {
		Path data = this.root.resolve("data");
		Path store = bothIn(data.resolve("kubebuilder-envtest/k8s/1.30.0-linux-amd64"));
		bothIn(home().resolve(".local/share/kubebuilder-envtest/k8s/1.31.0-linux-amd64"));
		this.environment.put("XDG_DATA_HOME", data.toString());
		assertThat(discover().etcd()).isEqualTo(store.resolve("etcd"));
	}

	@Test
	void cacheTakesEtcdFromItsOwnFolderBeforePath() throws IOException {
		Path cache = bothIn(home().resolve(".cache/kube-reconciler/assets"));
		Path bin = executable(this.root.resolve("bin/etcd")).getParent();
		this.environment.put("PATH", bin.toString());
		assertThat(discover())
			.isEqualTo(new KubernetesTestAssets(cache.resolve("etcd"), cache.resolve("kube-apiserver")));
	}

	@Test
	void cacheTakesEtcdFromPathWhenItHasNone() throws IOException {
		Path cache = executable(home().resolve(".cache/kube-reconciler/assets/kube-apiserver")).getParent();
		Path empty = Files.createDirectories(this.root.resolve("empty"));
		Path bin = executable(this.root.resolve("bin/etcd")).getParent();
		this.environment.put("PATH", empty + ":" + bin);
		assertThat(discover())
			.isEqualTo(new KubernetesTestAssets(bin.resolve("etcd"), cache.resolve("kube-apiserver")));
	}

	@Test
	void cacheFollowsXdgCacheHome() throws IOException {
		Path cache = bothIn(this.root.resolve("cache/kube-reconciler/assets"));
		this.environment.put("XDG_CACHE_HOME", this.root.resolve("cache").toString());
		assertThat(discover().kubeApiServer()).isEqualTo(cache.resolve("kube-apiserver"));
	}

	@Test
	void nothingFoundSaysWhereItLookedAndHowToProvideTheBinaries() {
		this.environment.put("PATH", this.root.toString());
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class).isThrownBy(this::discover)
			.withMessageStartingWith("No etcd and kube-apiserver for the Kubernetes test server: "
					+ "KUBEBUILDER_ASSETS is not set, no folder in "
					+ home().resolve(".local/share/kubebuilder-envtest/k8s") + " holds both, and "
					+ home().resolve(".cache/kube-reconciler/assets") + " has no executable kube-apiserver.")
			.withMessageContaining("run './dev setup' in the kube-reconciler checkout")
			.withMessageContaining("set KUBEBUILDER_ASSETS to a folder holding executable etcd and kube-apiserver")
			.withMessageContaining("'setup-envtest use -p path'");
	}

	@Test
	void nothingFoundDownloadsIntoTheEnvtestStoreWhereTheNextRunFindsIt() throws IOException {
		this.environment.put("PATH", this.root.toString());
		List<Path> stores = new ArrayList<>();
		EnvtestDownload download = (store) -> {
			stores.add(store);
			return bothIn(store.resolve("k8s/1.34.1-linux-amd64"));
		};
		Path folder = home().resolve(".local/share/kubebuilder-envtest/k8s/1.34.1-linux-amd64");
		assertThat(KubernetesTestAssets.discover(this.environment, home(), download))
			.isEqualTo(new KubernetesTestAssets(folder.resolve("etcd"), folder.resolve("kube-apiserver")));
		assertThat(stores).containsExactly(home().resolve(".local/share/kubebuilder-envtest"));
		// found without a download from now on
		assertThat(discover().kubeApiServer()).isEqualTo(folder.resolve("kube-apiserver"));
	}

	@Test
	void aFailedDownloadSaysWhereItLookedWhatFailedAndWhichPropertiesChangeIt() {
		this.environment.put("PATH", this.root.toString());
		EnvtestDownload download = new EnvtestDownload() {

			@Override
			public Path install(Path store) throws IOException {
				throw new IOException("raw.githubusercontent.com: connection refused");
			}

			@Override
			public String description() {
				return "the envtest download of Kubernetes 1.34.1";
			}

		};
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class)
			.isThrownBy(() -> KubernetesTestAssets.discover(this.environment, home(), download))
			.withMessageContaining("has no executable kube-apiserver")
			.withMessageContaining(
					"Then the envtest download of Kubernetes 1.34.1 failed: raw.githubusercontent.com: connection refused")
			.withMessageContaining("-Dkube-reconciler.test.envtest.version")
			.withMessageContaining("-Dkube-reconciler.test.envtest.download=false");
	}

	@Test
	void aWrongKubebuilderAssetsIsReportedRatherThanDownloadedAround() {
		this.environment.put("KUBEBUILDER_ASSETS", this.root.resolve("nowhere").toString());
		EnvtestDownload download = (store) -> {
			throw new AssertionError("no download when KUBEBUILDER_ASSETS is set");
		};
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class)
			.isThrownBy(() -> KubernetesTestAssets.discover(this.environment, home(), download))
			.withMessageContaining("KUBEBUILDER_ASSETS=" + this.root.resolve("nowhere"));
	}

	@Test
	void theMessageNamesTheSetupScriptOfTheCheckoutWhenTheBuildSaysWhereItIs() {
		this.environment.put("KUBE_RECONCILER_REPO_ROOT", "/src/kube-reconciler");
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class).isThrownBy(this::discover)
			.withMessageContaining("Either run '/src/kube-reconciler/dev setup' (it installs etcd");
	}

	@Test
	void cacheWithoutAnyEtcdSaysSo() throws IOException {
		Path cache = executable(home().resolve(".cache/kube-reconciler/assets/kube-apiserver")).getParent();
		this.environment.put("PATH", this.root.toString());
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class).isThrownBy(this::discover)
			.withMessageContaining("no executable etcd is in " + cache + " or on PATH.");
	}

	@Test
	void filesThatAreNotExecutableDoNotCount() throws IOException {
		Path assets = bothIn(this.root.resolve("assets"));
		Files.setPosixFilePermissions(assets.resolve("etcd"), PosixFilePermissions.fromString("rw-r--r--"));
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class)
			.isThrownBy(() -> KubernetesTestAssets.fromFolder(assets))
			.withMessageContaining(assets + " has no executable etcd.");
	}

	@Test
	void fromFolderNamesBothMissingBinaries() throws IOException {
		Path empty = Files.createDirectories(this.root.resolve("empty"));
		assertThatExceptionOfType(MissingKubernetesTestAssetsException.class)
			.isThrownBy(() -> KubernetesTestAssets.fromFolder(empty))
			.withMessageContaining(empty + " has no executable etcd or kube-apiserver.");
	}

	@Test
	void homeComesFromTheHomeVariableLikeSetupEnvtestAndDevSetup() {
		assertThat(KubernetesTestAssets.home(Map.of("HOME", "/somewhere/else"))).isEqualTo(Path.of("/somewhere/else"));
		assertThat(KubernetesTestAssets.home(Map.of("HOME", ""))).isEqualTo(Path.of(System.getProperty("user.home")));
		assertThat(KubernetesTestAssets.home(Map.of())).isEqualTo(Path.of(System.getProperty("user.home")));
	}

	private KubernetesTestAssets discover() {
		return KubernetesTestAssets.discover(this.environment, home());
	}

	private Path home() {
		return this.root.resolve("home");
	}

	private static Path bothIn(Path folder) throws IOException {
		executable(folder.resolve("etcd"));
		executable(folder.resolve("kube-apiserver"));
		return folder;
	}

	private static Path executable(Path file) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, "#!/bin/sh\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
		return file;
	}

}
