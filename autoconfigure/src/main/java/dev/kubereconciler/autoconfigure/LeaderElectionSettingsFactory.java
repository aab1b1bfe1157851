package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.springframework.core.env.Environment;

import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;

/**
 * Turns {@code kube-reconciler.leader-election.*} into {@link LeaderElectionSettings}:
 * finds the Lease's name and namespace when they are not set, makes up this instance's
 * identity, and rejects values that cannot work, naming the property.
 */
public final class LeaderElectionSettingsFactory {

	private static final String PREFIX = "kube-reconciler.leader-election.";

	public static final Path SERVICE_ACCOUNT_NAMESPACE = Path
		.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

	private LeaderElectionSettingsFactory() {
	}

	/**
	 * Return the Lease's name: {@code lease-name}, or the application's name followed by
	 * {@code -leader}.
	 */
	static String leaseName(LeaderElectionProperties config, Environment environment) {
		return (config.getLeaseName() != null) ? config.getLeaseName()
				: environment.getProperty("spring.application.name", "kube-reconciler") + "-leader";
	}

	static LeaderElectionSettings create(LeaderElectionProperties config, Environment environment) {
		return create(config, environment, SERVICE_ACCOUNT_NAMESPACE);
	}

	static LeaderElectionSettings create(LeaderElectionProperties config, Environment environment, Path namespaceFile) {
		String name = leaseName(config, environment);
		String namespace = (config.getLeaseNamespace() != null) ? config.getLeaseNamespace()
				: podNamespace(namespaceFile);
		String nameProperty = (config.getLeaseName() != null) ? PREFIX + "lease-name" : "spring.application.name";
		KubernetesNames.requireSubdomain(nameProperty, name,
				"Set " + PREFIX + "lease-name to a valid Lease name such as 'my-app-leader'.");
		KubernetesNames.requireLabel(PREFIX + "lease-namespace", namespace,
				"Set " + PREFIX + "lease-namespace to the namespace the Lease lives in, such as 'default'.");
		requirePositive("lease-duration", config.getLeaseDuration());
		requirePositive("renew-deadline", config.getRenewDeadline());
		requirePositive("retry-period", config.getRetryPeriod());
		if (config.getRenewDeadline().compareTo(config.getLeaseDuration()) >= 0) {
			throw new InvalidPropertyException(PREFIX + "renew-deadline", config.getRenewDeadline(),
					"the renew deadline must be shorter than the lease duration ("
							+ InvalidPropertyFailureAnalyzer.format(config.getLeaseDuration()) + ")",
					"Keep retry-period < renew-deadline < lease-duration, for example 2s, 10s and 15s.");
		}
		if (config.getRetryPeriod().compareTo(config.getRenewDeadline()) >= 0) {
			throw new InvalidPropertyException(PREFIX + "retry-period", config.getRetryPeriod(),
					"the retry period must be shorter than the renew deadline ("
							+ InvalidPropertyFailureAnalyzer.format(config.getRenewDeadline()) + ")",
					"Keep retry-period < renew-deadline < lease-duration, for example 2s, 10s and 15s.");
		}
		return new LeaderElectionSettings(name, namespace, identity(),
				new LeaseTiming(config.getLeaseDuration(), config.getRenewDeadline(), config.getRetryPeriod()),
				config.isWarmup());
	}

	private static void requirePositive(String name, Duration value) {
		PropertyDurations.requirePositive(PREFIX + name, value);
	}

	/**
	 * Return the namespace of the pod this runs in, read from its service account, or
	 * {@code default} outside a cluster.
	 */
	public static String podNamespace(Path namespaceFile) {
		try {
			return Files.isReadable(namespaceFile) ? Files.readString(namespaceFile).trim() : "default";
		}
		catch (IOException ex) {
			return "default";
		}
	}

	/**
	 * Return an identity unique to this process, whose host part tells an operator which
	 * pod holds the Lease; client-go uses the host name and a UUID the same way.
	 */
	static String identity() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			host = "unknown";
		}
		return host + "_" + UUID.randomUUID();
	}

}
