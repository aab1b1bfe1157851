package dev.kubereconciler.benchmarks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;

/**
 * The validator of the webhook benchmark: judges a ConfigMap as an application's
 * settings, the way a real validator reads a few keys of an object it receives whole, and
 * remembers the name of every ConfigMap it was asked about, so that the benchmark can
 * tell whether the API server called it for each create.
 */
final class SettingsValidator implements AdmissionValidator<V1ConfigMap> {

	static final Set<String> MODES = Set.of("fast", "safe", "batch");

	private static final int MAX_REPLICAS = 100;

	private final Set<String> seen = ConcurrentHashMap.newKeySet();

	@Override
	public AdmissionResult validateCreate(V1ConfigMap configMap, AdmissionRequest request) {
		V1ObjectMeta metadata = configMap.getMetadata();
		if (metadata != null && metadata.getName() != null) {
			this.seen.add(metadata.getName());
		}
		Map<String, String> data = (configMap.getData() != null) ? configMap.getData() : Map.of();
		String mode = data.get("mode");
		if (mode != null && !MODES.contains(mode)) {
			return AdmissionResult.denied("mode must be one of " + MODES + ", not '" + mode + "'");
		}
		String owner = data.get("owner");
		if (owner == null || owner.isBlank()) {
			return AdmissionResult.denied("owner is required: the team that answers for these settings");
		}
		String replicas = data.get("replicas");
		if (replicas != null) {
			try {
				int value = Integer.parseInt(replicas);
				if (value < 0 || value > MAX_REPLICAS) {
					return AdmissionResult.denied("replicas must be between 0 and " + MAX_REPLICAS + ", not " + value);
				}
			}
			catch (NumberFormatException ex) {
				return AdmissionResult.denied("replicas must be a whole number, not '" + replicas + "'");
			}
		}
		return AdmissionResult.allowed();
	}

	/**
	 * Return the data of every ConfigMap of the benchmark: the keys this validator reads,
	 * with values it allows, and a payload that brings the data, written as JSON, to the
	 * given size.
	 * @param size the bytes of the data as JSON
	 * @return the data
	 */
	static Map<String, String> validData(int size) {
		Map<String, String> data = new LinkedHashMap<>();
		data.put("mode", "fast");
		data.put("owner", "team-payments");
		data.put("replicas", "3");
		data.put("payload", "");
		int rest = size - JSON.getGson().toJson(data).length();
		data.put("payload", "x".repeat(Math.max(0, rest)));
		return Collections.unmodifiableMap(data);
	}

	/**
	 * Return whether a create of the named ConfigMap was judged since the last
	 * {@link #forget()}.
	 * @param name the ConfigMap's name
	 * @return {@code true} if the API server called this validator for it
	 */
	boolean saw(String name) {
		return this.seen.contains(name);
	}

	/**
	 * Forget every name seen.
	 */
	void forget() {
		this.seen.clear();
	}

}
