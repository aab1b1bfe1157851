package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Gadget}.
 */
public class GadgetList extends TestResource<V1ListMeta> implements KubernetesListObject {

	private List<Gadget> items = new ArrayList<>();

	public GadgetList() {
		super(Gadget.GROUP + "/" + Gadget.VERSION, "GadgetList");
	}

	@Override
	public List<Gadget> getItems() {
		return this.items;
	}

}
