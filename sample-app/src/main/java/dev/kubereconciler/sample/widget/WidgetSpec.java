package dev.kubereconciler.sample.widget;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import dev.kubereconciler.model.Description;

/**
 * The desired state of a {@link Widget}.
 *
 * @param size how big the external widget is
 * @param color the widget's color
 */
public record WidgetSpec(@NotNull @Min(1) @Max(100) @Description("How big the external widget is.") Integer size,
		@NotNull @Size(min = 1, max = 32) @Description("The widget's color. The simulated external API always fails "
				+ "for \"cursed\" and fails the first few calls for \"flaky\".") String color) {

}
