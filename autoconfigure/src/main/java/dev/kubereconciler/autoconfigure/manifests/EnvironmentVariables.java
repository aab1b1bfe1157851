package dev.kubereconciler.autoconfigure.manifests;

import java.util.Locale;

import io.kubernetes.client.openapi.models.V1EnvVar;

/**
 * The environment variables of the generated Deployment, each named from its property as
 * Spring Boot's binding reads the system environment.
 */
final class EnvironmentVariables {

	private EnvironmentVariables() {
	}

	/**
	 * Return the variable that sets a property.
	 * @param property the property in its canonical form, such as
	 * {@code kube-reconciler.leader-election.enabled}
	 * @param value the value
	 * @return the variable, here {@code KUBERECONCILER_LEADERELECTION_ENABLED}
	 */
	static V1EnvVar of(String property, Object value) {
		return new V1EnvVar().name(name(property)).value(String.valueOf(value));
	}

	// Spring's own rule: dots become underscores, dashes go, upper case; a dash kept as
	// an underscore (KUBE_RECONCILER_) would name another key, which binds to nothing
	static String name(String property) {
		return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
	}

}
