package dev.kubereconciler.controller;

import java.util.List;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A custom resource on the base class, with a record spec and a record status and no list
 * class; its CRD, with a {@code /status} subresource, is
 * {@code dev/kubereconciler/controller/backups.yaml}.
 */
@ResourceCoordinates(group = Backup.GROUP, version = "v1", kind = "Backup", plural = "backups")
public class Backup extends CustomResource<Backup.Spec, Backup.Status> {

	static final String GROUP = "base.test.kubereconciler.dev";

	/**
	 * What to back up, and when.
	 *
	 * @param schedule a cron schedule
	 * @param targets what to back up
	 */
	public record Spec(String schedule, List<String> targets) {
	}

	/**
	 * What the controller saw.
	 *
	 * @param phase the phase
	 * @param observedGeneration the generation it saw
	 */
	public record Status(String phase, Long observedGeneration) {
	}

}
