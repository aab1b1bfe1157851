package dev.kubereconciler.test.deploy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvFromSource;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1EnvVarSource;
import io.kubernetes.client.openapi.models.V1Secret;
import org.jspecify.annotations.Nullable;

/**
 * A container's environment as the kubelet computes it: {@code envFrom}, then {@code env}
 * with its {@code valueFrom} sources read from the API server and {@code $(VAR)}
 * references expanded.
 */
final class ContainerEnvironment {

	private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([-._a-zA-Z0-9]+)\\)");

	private static final Pattern LABEL_FIELD = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

	private final CoreV1Api api;

	private final PodIdentity pod;

	private final String container;

	ContainerEnvironment(CoreV1Api api, PodIdentity pod, String container) {
		this.api = api;
		this.pod = pod;
		this.container = container;
	}

	Map<String, String> resolve(V1Container spec) {
		Map<String, String> environment = new LinkedHashMap<>();
		for (V1EnvFromSource source : Objects.requireNonNullElse(spec.getEnvFrom(), List.<V1EnvFromSource>of())) {
			String prefix = Objects.requireNonNullElse(source.getPrefix(), "");
			if (source.getSecretRef() != null) {
				V1Secret secret = secret(source.getSecretRef().getName(), source.getSecretRef().getOptional());
				requireFound(secret, "Secret", source.getSecretRef().getName(), source.getSecretRef().getOptional());
				if (secret != null && secret.getData() != null) {
					secret.getData()
						.forEach((key, value) -> environment.put(prefix + key,
								new String(value, StandardCharsets.UTF_8)));
				}
			}
			if (source.getConfigMapRef() != null) {
				V1ConfigMap configMap = configMap(source.getConfigMapRef().getName(),
						source.getConfigMapRef().getOptional());
				requireFound(configMap, "ConfigMap", source.getConfigMapRef().getName(),
						source.getConfigMapRef().getOptional());
				if (configMap != null && configMap.getData() != null) {
					configMap.getData().forEach((key, value) -> environment.put(prefix + key, value));
				}
			}
		}
		for (V1EnvVar variable : Objects.requireNonNullElse(spec.getEnv(), List.<V1EnvVar>of())) {
			String value = (variable.getValueFrom() != null) ? valueFrom(variable.getName(), variable.getValueFrom())
					: expand(Objects.requireNonNullElse(variable.getValue(), ""), environment::get);
			if (value != null) {
				environment.put(variable.getName(), value);
			}
		}
		return environment;
	}

	/**
	 * Expand {@code $(NAME)} as the kubelet does: a name that is not defined stays as
	 * written, and {@code $$} is a literal {@code $}.
	 */
	static String expand(String value, Function<String, @Nullable String> variables) {
		Matcher matcher = REFERENCE.matcher(value);
		StringBuilder expanded = new StringBuilder();
		while (matcher.find()) {
			String name = matcher.group(1);
			String replacement = (name == null) ? "$" : variables.apply(name);
			matcher.appendReplacement(expanded,
					Matcher.quoteReplacement((replacement != null) ? replacement : matcher.group()));
		}
		return matcher.appendTail(expanded).toString();
	}

	private @Nullable String valueFrom(String name, V1EnvVarSource source) {
		if (source.getSecretKeyRef() != null) {
			V1Secret secret = secret(source.getSecretKeyRef().getName(), source.getSecretKeyRef().getOptional());
			byte[] value = (secret != null && secret.getData() != null)
					? secret.getData().get(source.getSecretKeyRef().getKey()) : null;
			return (value != null) ? new String(value, StandardCharsets.UTF_8)
					: missingKey(name, "Secret", source.getSecretKeyRef().getName(), source.getSecretKeyRef().getKey(),
							secret != null, source.getSecretKeyRef().getOptional());
		}
		if (source.getConfigMapKeyRef() != null) {
			V1ConfigMap configMap = configMap(source.getConfigMapKeyRef().getName(),
					source.getConfigMapKeyRef().getOptional());
			String value = (configMap != null && configMap.getData() != null)
					? configMap.getData().get(source.getConfigMapKeyRef().getKey()) : null;
			return (value != null) ? value : missingKey(name, "ConfigMap", source.getConfigMapKeyRef().getName(),
					source.getConfigMapKeyRef().getKey(), configMap != null, source.getConfigMapKeyRef().getOptional());
		}
		if (source.getFieldRef() != null) {
			return field(name, source.getFieldRef().getFieldPath());
		}
		throw new IllegalArgumentException("Container '" + this.container + "': env " + name
				+ " uses a valueFrom source the runner does not support (" + source
				+ "); use value, secretKeyRef, configMapKeyRef or fieldRef");
	}

	private String field(String name, String path) {
		Matcher labelOrAnnotation = LABEL_FIELD.matcher(path);
		if (labelOrAnnotation.matches()) {
			Map<String, String> values = labelOrAnnotation.group(1).equals("labels") ? this.pod.labels()
					: this.pod.annotations();
			return Objects.requireNonNullElse(values.get(labelOrAnnotation.group(2)), "");
		}
		return switch (path) {
			case "metadata.name" -> this.pod.name();
			case "metadata.namespace" -> this.pod.namespace();
			case "metadata.uid" -> this.pod.uid();
			case "status.podIP", "status.podIPs" -> this.pod.ip();
			case "status.hostIP", "status.hostIPs" -> "127.0.0.1";
			case "spec.nodeName" -> "localhost";
			case "spec.serviceAccountName" -> this.pod.serviceAccountName();
			default -> throw new IllegalArgumentException("Container '" + this.container + "': env " + name
					+ " refers to the field " + path + ", which the runner does not support");
		};
	}

	private void requireFound(@Nullable Object object, String kind, String name, @Nullable Boolean optional) {
		if (object == null && !Boolean.TRUE.equals(optional)) {
			throw new IllegalStateException("Container '" + this.container + "': envFrom refers to " + kind + " "
					+ this.pod.namespace() + "/" + name
					+ ", which does not exist; a kubelet would not start the container (CreateContainerConfigError)");
		}
	}

	private @Nullable String missingKey(String name, String kind, String object, String key, boolean exists,
			@Nullable Boolean optional) {
		if (Boolean.TRUE.equals(optional)) {
			return null;
		}
		throw new IllegalStateException(
				"Container '" + this.container + "': env " + name + " refers to " + kind + " " + this.pod.namespace()
						+ "/" + object + ((exists) ? ", which has no key '" + key + "'" : ", which does not exist")
						+ "; a kubelet would not start the container (CreateContainerConfigError)");
	}

	private @Nullable V1Secret secret(String name, @Nullable Boolean optional) {
		try {
			return this.api.readNamespacedSecret(name, this.pod.namespace()).execute();
		}
		catch (ApiException ex) {
			return absent(ex, "Secret", name, optional);
		}
	}

	private @Nullable V1ConfigMap configMap(String name, @Nullable Boolean optional) {
		try {
			return this.api.readNamespacedConfigMap(name, this.pod.namespace()).execute();
		}
		catch (ApiException ex) {
			return absent(ex, "ConfigMap", name, optional);
		}
	}

	private <T> @Nullable T absent(ApiException ex, String kind, String name, @Nullable Boolean optional) {
		if (ex.getCode() == 404) {
			// a missing key of a missing object is reported by the caller, which knows
			// the key
			return null;
		}
		throw new IllegalStateException("Could not read " + kind + " " + this.pod.namespace() + "/" + name + ": "
				+ ex.getCode() + " " + ex.getResponseBody(), ex);
	}

}
