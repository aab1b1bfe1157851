package dev.kubereconciler.crd;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A custom resource with a field of every kind the CRD generator supports, and a printer
 * column of every type, none of which names its type; the API server must store an object
 * of it unchanged.
 */
@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1", kind = "Specimen", plural = "specimens")
@PrinterColumn(name = "Count", jsonPath = ".spec.count")
@PrinterColumn(name = "Total", jsonPath = ".spec.total")
@PrinterColumn(name = "Ratio", jsonPath = ".spec.ratio")
@PrinterColumn(name = "Enabled", jsonPath = ".spec.enabled")
@PrinterColumn(name = "Since", jsonPath = ".spec.since")
@PrinterColumn(name = "Mode", jsonPath = ".spec.mode")
@PrinterColumn(name = "Memory", jsonPath = ".spec.memory")
@PrinterColumn(name = "Host", jsonPath = ".spec.primary.host")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp")
public class Specimen extends CustomResource<Specimen.Spec, Void> {

	/**
	 * A field of each kind.
	 *
	 * @param settings an untyped map, kept whole
	 * @param anything any JSON value, kept whole
	 * @param payload bytes, as client-java writes them: base64
	 * @param labels a map of strings
	 * @param endpoints a map of objects
	 * @param replicas a list of objects
	 * @param count an int
	 * @param total a long
	 * @param ratio a double
	 * @param enabled a boolean
	 * @param since a date and time
	 * @param day a date
	 * @param memory a quantity
	 * @param port a number or a name
	 * @param primary a nested object
	 * @param mode an enum
	 */
	public record Spec(@Nullable Map<String, Object> settings, @Nullable Object anything, byte @Nullable [] payload,
			@Nullable Map<String, String> labels, @Nullable Map<String, Endpoint> endpoints,
			@Nullable List<Endpoint> replicas, int count, long total, double ratio, boolean enabled,
			@Nullable OffsetDateTime since, @Nullable LocalDate day, @Nullable Quantity memory,
			@Nullable IntOrString port, @Nullable Endpoint primary, @Nullable Mode mode) {

	}

	/**
	 * Where a copy is served.
	 *
	 * @param host the host
	 * @param port the port
	 * @param tags its tags
	 */
	public record Endpoint(@Nullable String host, int port, @Nullable List<String> tags) {

	}

	/**
	 * How it runs.
	 */
	public enum Mode {

		@SerializedName("active")
		ACTIVE, @SerializedName("standby")
		STANDBY

	}

}
