package dev.kubereconciler.sample.widget;

import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.PrinterColumn;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ShortNames;

/**
 * A {@code Widget} custom resource of {@code sample.kubereconciler.dev/v1alpha1}: the
 * base class gives it everything a model needs, and the build generates its CRD.
 */
@ResourceCoordinates(group = Widget.GROUP, version = Widget.VERSION, kind = Widget.KIND, plural = Widget.PLURAL)
@ShortNames("wdg")
@PrinterColumn(name = "Color", jsonPath = ".spec.color")
@PrinterColumn(name = "Size", jsonPath = ".spec.size", type = "integer")
@PrinterColumn(name = "Phase", jsonPath = ".status.phase")
@PrinterColumn(name = "External ID", jsonPath = ".status.externalId")
@PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = "date")
public class Widget extends CustomResource<WidgetSpec, WidgetStatus> {

	/** The API group. */
	public static final String GROUP = "sample.kubereconciler.dev";

	/** The served version. */
	public static final String VERSION = "v1alpha1";

	/** The kind. */
	public static final String KIND = "Widget";

	/** The plural resource name. */
	public static final String PLURAL = "widgets";

	/**
	 * Return a widget to create.
	 * @param namespace its namespace
	 * @param name its name
	 * @param spec its spec
	 * @return the widget
	 */
	public static Widget of(String namespace, String name, WidgetSpec spec) {
		Widget widget = new Widget();
		widget.setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
		widget.setSpec(spec);
		return widget;
	}

}
