package ${package};

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1Condition;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.Description;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A {@code ${kind}} of {@code ${apiGroup}/${apiVersion}}. The build generates its CRD from
 * this class, into {@code META-INF/kubernetes/crds}, where the tests install it from.
 */
@ResourceCoordinates(group = ${kind}.GROUP, version = ${kind}.VERSION, kind = ${kind}.KIND, plural = ${kind}.PLURAL)
@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date")
public class ${kind} extends CustomResource<${kind}.Spec, ${kind}.Status> {

	/** The API group. */
	public static final String GROUP = "${apiGroup}";

	/** The served version. */
	public static final String VERSION = "${apiVersion}";

	/** The kind. */
	public static final String KIND = "${kind}";

	/** The plural resource name. */
	public static final String PLURAL = "${plural}";

	/**
	 * The desired state: what the ${kind}'s ConfigMap holds.
	 */
	public static class Spec {

		@Description("The settings the ${kind}'s ConfigMap holds, by key.")
		private Map<String, String> settings = new LinkedHashMap<>();

		public Map<String, String> getSettings() {
			return this.settings;
		}

		public void setSettings(Map<String, String> settings) {
			this.settings = settings;
		}

	}

	/**
	 * The observed state.
	 */
	public static class Status {

		@Description("The metadata.generation that the status reflects.")
		private @Nullable Long observedGeneration;

		@Description("The Ready condition: whether the ConfigMap holds the settings.")
		private List<V1Condition> conditions = new ArrayList<>();

		public @Nullable Long getObservedGeneration() {
			return this.observedGeneration;
		}

		public void setObservedGeneration(@Nullable Long observedGeneration) {
			this.observedGeneration = observedGeneration;
		}

		public List<V1Condition> getConditions() {
			return this.conditions;
		}

		public void setConditions(List<V1Condition> conditions) {
			this.conditions = conditions;
		}

	}

}
