package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1KeyToPath;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeProjection;
import org.jspecify.annotations.Nullable;

/**
 * A pod's volumes in a folder of the replica: Secrets and ConfigMaps written as the
 * kubelet's atomic writer does, into a timestamped folder that the {@code ..data}
 * symbolic link points at, with each key a link to {@code ..data/<key>}, swapped as a
 * whole when the object changes; {@code emptyDir} as an empty folder.
 */
final class PodVolumes {

	private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy_MM_dd_HH_mm_ss.SSSSSSSSS")
		.withZone(ZoneOffset.UTC);

	private static final int DEFAULT_MODE = 0644;

	private final CoreV1Api api;

	private final String namespace;

	private final List<V1Volume> volumes;

	private final Path directory;

	private final Clock clock;

	private final Map<String, Map<String, FileContent>> written = new HashMap<>();

	private int swaps;

	PodVolumes(CoreV1Api api, String namespace, List<V1Volume> volumes, Path directory, Clock clock) {
		this.api = api;
		this.namespace = namespace;
		this.volumes = volumes;
		this.directory = directory;
		this.clock = clock;
	}

	Path path(String volume) {
		if (this.volumes.stream().noneMatch((candidate) -> candidate.getName().equals(volume))) {
			throw new IllegalArgumentException(
					"A volumeMount names the volume '" + volume + "', which the pod template does not declare");
		}
		return this.directory.resolve(volume);
	}

	/**
	 * Write every volume whose content differs from what was written last.
	 * @return the names of the volumes written
	 */
	synchronized List<String> refresh() {
		return this.volumes.stream().filter(this::refresh).map(V1Volume::getName).toList();
	}

	private boolean refresh(V1Volume volume) {
		Path folder = this.directory.resolve(volume.getName());
		try {
			Files.createDirectories(folder);
			if (volume.getEmptyDir() != null) {
				return false;
			}
			Map<String, FileContent> content = content(volume);
			if (content.equals(this.written.get(volume.getName()))) {
				return false;
			}
			swap(folder, content, this.written.getOrDefault(volume.getName(), Map.of()));
			this.written.put(volume.getName(), content);
			return true;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Map<String, FileContent> content(V1Volume volume) {
		Map<String, FileContent> files = new LinkedHashMap<>();
		if (volume.getSecret() != null) {
			addSecret(files, volume.getName(), Objects.requireNonNull(volume.getSecret().getSecretName()),
					volume.getSecret().getItems(), volume.getSecret().getDefaultMode(),
					volume.getSecret().getOptional());
		}
		else if (volume.getConfigMap() != null) {
			addConfigMap(files, volume.getName(), volume.getConfigMap().getName(), volume.getConfigMap().getItems(),
					volume.getConfigMap().getDefaultMode(), volume.getConfigMap().getOptional());
		}
		else if (volume.getProjected() != null) {
			Integer mode = volume.getProjected().getDefaultMode();
			for (V1VolumeProjection source : Objects.requireNonNullElse(volume.getProjected().getSources(),
					List.<V1VolumeProjection>of())) {
				if (source.getSecret() != null) {
					addSecret(files, volume.getName(), source.getSecret().getName(), source.getSecret().getItems(),
							mode, source.getSecret().getOptional());
				}
				else if (source.getConfigMap() != null) {
					addConfigMap(files, volume.getName(), source.getConfigMap().getName(),
							source.getConfigMap().getItems(), mode, source.getConfigMap().getOptional());
				}
				else {
					throw unsupported(volume, "a projected source other than secret and configMap (" + source + ")");
				}
			}
		}
		else {
			throw unsupported(volume, "its type");
		}
		return files;
	}

	private void addSecret(Map<String, FileContent> files, String volume, String name,
			@Nullable List<V1KeyToPath> items, @Nullable Integer defaultMode, @Nullable Boolean optional) {
		V1Secret secret = read(() -> this.api.readNamespacedSecret(name, this.namespace).execute(), volume, "Secret",
				name, optional);
		Map<String, byte[]> data = (secret != null) ? Objects.requireNonNullElse(secret.getData(), Map.of()) : Map.of();
		add(files, volume, "Secret " + name, data, items, defaultMode, optional);
	}

	private void addConfigMap(Map<String, FileContent> files, String volume, String name,
			@Nullable List<V1KeyToPath> items, @Nullable Integer defaultMode, @Nullable Boolean optional) {
		V1ConfigMap configMap = read(() -> this.api.readNamespacedConfigMap(name, this.namespace).execute(), volume,
				"ConfigMap", name, optional);
		Map<String, byte[]> data = new LinkedHashMap<>();
		if (configMap != null) {
			Objects.requireNonNullElse(configMap.getData(), Map.<String, String>of())
				.forEach((key, value) -> data.put(key, value.getBytes(StandardCharsets.UTF_8)));
			data.putAll(Objects.requireNonNullElse(configMap.getBinaryData(), Map.of()));
		}
		add(files, volume, "ConfigMap " + name, data, items, defaultMode, optional);
	}

	private void add(Map<String, FileContent> files, String volume, String source, Map<String, byte[]> data,
			@Nullable List<V1KeyToPath> items, @Nullable Integer defaultMode, @Nullable Boolean optional) {
		int mode = Objects.requireNonNullElse(defaultMode, DEFAULT_MODE);
		// client-java's models hold an empty list where the manifest has none
		if (items == null || items.isEmpty()) {
			data.forEach((key, value) -> files.put(key, new FileContent(value, mode)));
			return;
		}
		for (V1KeyToPath item : items) {
			byte[] value = data.get(item.getKey());
			if (value == null) {
				if (Boolean.TRUE.equals(optional)) {
					continue;
				}
				throw new IllegalStateException("Volume '" + volume + "': " + source + " in namespace " + this.namespace
						+ " has no key '" + item.getKey() + "' named in items; a kubelet would not start the pod");
			}
			files.put(item.getPath(), new FileContent(value, Objects.requireNonNullElse(item.getMode(), mode)));
		}
	}

	private <T> @Nullable T read(ApiCall<T> call, String volume, String kind, String name, @Nullable Boolean optional) {
		try {
			return call.call();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404 && Boolean.TRUE.equals(optional)) {
				return null;
			}
			throw new IllegalStateException("Volume '" + volume + "': " + kind + " " + this.namespace + "/" + name
					+ ((ex.getCode() == 404) ? " does not exist; a kubelet would not start the pod (it waits for it)"
							: " cannot be read: " + ex.getCode() + " " + ex.getResponseBody()),
					ex);
		}
	}

	// the kubelet's AtomicWriter: readers see the old or the new set of files, never a
	// mix
	private void swap(Path folder, Map<String, FileContent> content, Map<String, FileContent> previous)
			throws IOException {
		Path data = folder.resolve("..data");
		Path old = Files.isSymbolicLink(data) ? folder.resolve(Files.readSymbolicLink(data)) : null;
		Path timestamped = folder.resolve(".." + TIMESTAMP.format(this.clock.instant()) + "." + (++this.swaps));
		Files.createDirectories(timestamped);
		for (Map.Entry<String, FileContent> file : content.entrySet()) {
			Path target = timestamped.resolve(file.getKey());
			Files.createDirectories(target.getParent());
			Files.write(target, file.getValue().data());
			Files.setPosixFilePermissions(target, permissions(file.getValue().mode()));
		}
		Path link = folder.resolve("..data_tmp");
		Files.deleteIfExists(link);
		Files.createSymbolicLink(link, timestamped.getFileName());
		Files.move(link, data, StandardCopyOption.ATOMIC_MOVE);
		for (String top : topLevel(content)) {
			Path visible = folder.resolve(top);
			if (!Files.isSymbolicLink(visible)) {
				Files.createSymbolicLink(visible, Path.of("..data", top));
			}
		}
		Set<String> current = topLevel(content);
		for (String top : topLevel(previous)) {
			if (!current.contains(top)) {
				Files.deleteIfExists(folder.resolve(top));
			}
		}
		if (old != null) {
			delete(old);
		}
	}

	private static Set<String> topLevel(Map<String, FileContent> content) {
		return content.keySet()
			.stream()
			.map((path) -> path.contains("/") ? path.substring(0, path.indexOf('/')) : path)
			.collect(java.util.stream.Collectors.toSet());
	}

	static void delete(Path folder) throws IOException {
		if (!Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(folder)) {
			for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(path);
			}
		}
	}

	private static Set<PosixFilePermission> permissions(int mode) {
		Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
		PosixFilePermission[] bits = { PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
				PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
				PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
				PosixFilePermission.OWNER_READ };
		for (int bit = 0; bit < bits.length; bit++) {
			if ((mode & (1 << bit)) != 0) {
				permissions.add(bits[bit]);
			}
		}
		// the test JVM's user must be able to replace the files, as root does for the
		// kubelet
		permissions.add(PosixFilePermission.OWNER_READ);
		return permissions;
	}

	private static IllegalArgumentException unsupported(V1Volume volume, String what) {
		return new IllegalArgumentException("Volume '" + volume.getName() + "': the runner does not support " + what
				+ "; it writes secret, configMap, projected (secret, configMap) and emptyDir volumes");
	}

	private record FileContent(byte[] data, int mode) {

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof FileContent that && this.mode == that.mode
					&& java.util.Arrays.equals(this.data, that.data);
		}

		@Override
		public int hashCode() {
			return 31 * java.util.Arrays.hashCode(this.data) + this.mode;
		}

	}

	@FunctionalInterface
	private interface ApiCall<T> {

		T call() throws ApiException;

	}

}
