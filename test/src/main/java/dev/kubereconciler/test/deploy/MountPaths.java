package dev.kubereconciler.test.deploy;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1VolumeMount;

/**
 * A container's mount paths and the replica's folders that stand in for them: a value
 * that names a path under a mount path ({@code /etc/certs/tls.crt},
 * {@code file:/etc/certs/tls.crt}) is rewritten to the folder, since the process shares
 * the host's file system, where {@code /etc} is not the test's to write.
 */
final class MountPaths {

	private final Map<String, Path> mounts = new LinkedHashMap<>();

	MountPaths(V1Container container, PodVolumes volumes) {
		List<V1VolumeMount> volumeMounts = Objects.requireNonNullElse(container.getVolumeMounts(), List.of());
		volumeMounts.stream()
			.sorted(Comparator.comparing((V1VolumeMount mount) -> mount.getMountPath().length()).reversed())
			.forEach((mount) -> {
				Path folder = volumes.path(mount.getName());
				String subPath = mount.getSubPath();
				this.mounts.put(trimmed(mount.getMountPath()),
						(subPath != null && !subPath.isEmpty()) ? folder.resolve(subPath) : folder);
			});
	}

	Map<String, Path> mounts() {
		return this.mounts;
	}

	String rewrite(String value) {
		String rewritten = value;
		for (Map.Entry<String, Path> mount : this.mounts.entrySet()) {
			// a whole path: at the start or after a scheme, '=', ',' or a space, and
			// ending there or at a '/'
			Pattern pattern = Pattern.compile("(?<![^:=,\\s@])" + Pattern.quote(mount.getKey()) + "(?=/|$|[,;\\s])");
			rewritten = pattern.matcher(rewritten)
				.replaceAll(Matcher.quoteReplacement(mount.getValue().toAbsolutePath().toString()));
		}
		return rewritten;
	}

	private static String trimmed(String path) {
		return (path.length() > 1 && path.endsWith("/")) ? path.substring(0, path.length() - 1) : path;
	}

}
