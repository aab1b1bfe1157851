package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Gadget}.
 */
public class GadgetList implements KubernetesListObject {

	private String apiVersion = "test.kubereconciler.dev/v1";

	private String kind = "GadgetList";

	private V1ListMeta metadata;

	private List<Gadget> items = new ArrayList<>();

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	@Override
	public List<Gadget> getItems() {
		return this.items;
	}

}
