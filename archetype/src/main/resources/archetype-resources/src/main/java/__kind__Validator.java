package ${package};

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;

/**
 * The validating webhook of {@link ${kind}}: a setting whose key no ConfigMap can hold is
 * refused when the ${kind} is written, rather than failing the reconcile that applies
 * the ConfigMap later.
 */
@Component
public class ${kind}Validator implements AdmissionValidator<${kind}> {

	// the API server's rule for ConfigMap keys
	private static final Pattern CONFIG_MAP_KEY = Pattern.compile("[-._a-zA-Z0-9]{1,253}");

	@Override
	public AdmissionResult validateCreate(${kind} resource, AdmissionRequest request) {
		return judge(resource, Set.of());
	}

	@Override
	public AdmissionResult validateUpdate(${kind} oldResource, ${kind} resource, AdmissionRequest request) {
		// judge what this update changes, never the whole object again: the finalizer's
		// removal must pass on a ${kind} stored before a rule
		return judge(resource, settings(oldResource).keySet());
	}

	private AdmissionResult judge(${kind} resource, Set<String> keptKeys) {
		for (String key : settings(resource).keySet()) {
			if (!keptKeys.contains(key) && !CONFIG_MAP_KEY.matcher(key).matches()) {
				return AdmissionResult.denied("spec.settings key '" + key + "' cannot be a ConfigMap key: "
						+ "use 1 to 253 letters, digits, '-', '_' or '.'");
			}
		}
		return AdmissionResult.allowed();
	}

	private static Map<String, String> settings(${kind} resource) {
		return (resource.getSpec() != null) ? resource.getSpec().getSettings() : Map.of();
	}

}
