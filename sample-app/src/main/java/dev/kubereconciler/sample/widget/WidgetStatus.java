package dev.kubereconciler.sample.widget;

import dev.kubereconciler.model.Description;

/**
 * The observed state of a {@link Widget}.
 *
 * @param phase {@link #READY} or {@link #ERROR}
 * @param externalId the id of the resource in the external API
 * @param observedGeneration the generation the status reflects
 * @param message why the phase is what it is
 */
public record WidgetStatus(
		@Description("Ready once the external resource matches the spec, Error while calls fail.") String phase,
		@Description("The id of the resource in the external API.") String externalId,
		@Description("The metadata.generation that the status reflects.") Long observedGeneration,
		@Description("Why the phase is what it is.") String message) {

	/** The phase once the external resource matches the spec. */
	public static final String READY = "Ready";

	/** The phase while calls to the external API fail. */
	public static final String ERROR = "Error";

}
