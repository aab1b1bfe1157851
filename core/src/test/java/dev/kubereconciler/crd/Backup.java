package dev.kubereconciler.crd;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Condition;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.model.Categories;
import dev.kubereconciler.model.Default;
import dev.kubereconciler.model.Description;
import dev.kubereconciler.model.PreserveUnknownFields;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ScaleSubresource;
import dev.kubereconciler.model.ShortNames;
import dev.kubereconciler.model.ValidationRule;

/**
 * A representative custom resource model on a generic base: every feature of the CRD
 * generator once, and the golden file {@code backups.crd.kubereconciler.dev.yaml}.
 */
@ResourceCoordinates(group = "crd.kubereconciler.dev", version = "v1alpha1", kind = "Backup", plural = "backups")
@Description("A scheduled backup of a database.")
@ShortNames("bk")
@Categories({ "all", "databases" })
@PrinterColumn(name = "Database", jsonPath = ".spec.database")
@PrinterColumn(name = "Retention", type = "integer", jsonPath = ".spec.retentionDays", description = "Days kept")
@PrinterColumn(name = "Phase", jsonPath = ".status.phase", priority = 1)
@ScaleSubresource(labelSelectorPath = ".status.selector")
public class Backup extends GenericResource<Backup.Spec, Backup.Status> {

	/**
	 * What to back up, and how.
	 *
	 * @param database the database
	 * @param retentionDays days to keep each backup
	 * @param schedule when
	 * @param storage the volume size
	 * @param port the database's port, by number or name
	 * @param replicas copies of each backup
	 * @param sizeLimitBytes a limit
	 * @param compression the compression ratio
	 * @param paused whether backups pause
	 * @param tags tags, at most five
	 * @param targets distinct target names
	 * @param labels labels of each backup
	 * @param options the database tool's own options, unchecked
	 * @param window when backups may run
	 */
	@ValidationRule(value = "!has(self.targets) || size(self.targets) <= self.replicas",
			message = "no more targets than replicas")
	public record Spec(
			@NotNull @Pattern(regexp = "^[a-z][a-z0-9-]*$") @Description("The database to back up.") String database,
			@Min(1) @Max(30) @Default("7") @Nullable Integer retentionDays,
			@Default("daily") @Nullable Schedule schedule, @Nullable Quantity storage, @Nullable IntOrString port,
			int replicas, @Nullable Long sizeLimitBytes, @Nullable Double compression, @Nullable Boolean paused,
			@Size(max = 5) @Nullable List<String> tags, @Nullable Set<String> targets,
			@Nullable Map<String, String> labels, @PreserveUnknownFields @Nullable Map<String, Object> options,
			@Description("When backups may run.") @Nullable Window window) {

	}

	/**
	 * When backups run.
	 */
	public enum Schedule {

		@SerializedName("hourly")
		HOURLY, @SerializedName("daily")
		DAILY

	}

	/**
	 * A window of the day, in hours.
	 *
	 * @param start the first hour
	 * @param end the hour after the last
	 */
	@Description("A window of the day.")
	@ValidationRule(value = "self.start < self.end", message = "start must come before end")
	public record Window(@Min(0) @Max(23) int start, @Min(1) @Max(24) int end) {

	}

	/**
	 * What the controller observed, in client-java's style.
	 */
	public static class Status {

		@SerializedName("phase")
		private @Nullable String phase;

		@SerializedName("lastBackupTime")
		private @Nullable OffsetDateTime lastBackupTime;

		@SerializedName("replicas")
		private @Nullable Integer replicas;

		@SerializedName("selector")
		private @Nullable String selector;

		@SerializedName("conditions")
		private @Nullable List<V1Condition> conditions;

	}

}
