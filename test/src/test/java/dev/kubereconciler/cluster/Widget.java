package dev.kubereconciler.cluster;

import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A custom resource of the fleet tests, installed on every API server they engage from
 * {@code dev/kubereconciler/cluster/widgets.yaml}; its status names the cluster that
 * reconciled it.
 */
@ResourceCoordinates(group = Widget.GROUP, version = "v1", kind = "Widget", plural = "widgets")
public class Widget extends CustomResource<Widget.Spec, Widget.Status> {

	static final String GROUP = "fleet.test.kubereconciler.dev";

	static Widget named(String namespace, String name) {
		Widget widget = new Widget();
		widget.setMetadata(new V1ObjectMeta().namespace(namespace).name(name));
		widget.setSpec(new Spec(1));
		return widget;
	}

	/**
	 * The desired state.
	 *
	 * @param size a size
	 */
	public record Spec(int size) {
	}

	/**
	 * What the controller saw.
	 *
	 * @param cluster the name of the cluster that reconciled it, empty for the local one
	 */
	public record Status(String cluster) {
	}

}
