package dev.kubereconciler.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The command an access provider runs to get a member cluster's credential, as a
 * kubeconfig's {@code user.exec} and the Cluster Inventory API's providers file's
 * {@code execConfig} declare it: it prints a {@code client.authentication.k8s.io}
 * {@code ExecCredential} with a token or a client certificate and key.
 *
 * @param command the executable, a path or a name found on {@code PATH}
 * @param args its arguments
 * @param env environment variables added to the manager's own
 * @param apiVersion the {@code ExecCredential} version it speaks: {@value #V1} or
 * {@value #V1BETA1}
 * @param provideClusterInfo whether the cluster's server, CA and exec extension are
 * passed in {@code KUBERNETES_EXEC_INFO}
 */
public record ExecPlugin(String command, List<String> args, Map<String, String> env, String apiVersion,
		boolean provideClusterInfo) {

	/** The {@code ExecCredential} version client-go speaks by default. */
	public static final String V1 = "client.authentication.k8s.io/v1";

	/** The older {@code ExecCredential} version, still read by client-go. */
	public static final String V1BETA1 = "client.authentication.k8s.io/v1beta1";

	private static final Set<String> VERSIONS = Set.of(V1, V1BETA1);

	public ExecPlugin {
		if (command == null || command.isBlank()) {
			throw new IllegalArgumentException("command must not be empty; name the plugin's executable");
		}
		if (!VERSIONS.contains(apiVersion)) {
			throw new IllegalArgumentException(
					"apiVersion '" + apiVersion + "' is not an ExecCredential version; use " + V1 + " or " + V1BETA1);
		}
		args = List.copyOf(Objects.requireNonNull(args, "args must not be null"));
		env = Map.copyOf(new LinkedHashMap<>(Objects.requireNonNull(env, "env must not be null")));
	}

	/**
	 * Create a plugin speaking {@value #V1} that is given the cluster's information.
	 * @param command the executable
	 * @param args its arguments
	 * @return the plugin
	 */
	public static ExecPlugin of(String command, String... args) {
		return new ExecPlugin(command, List.of(args), Map.of(), V1, true);
	}

}
