package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Thingamajig}.
 */
public class ThingamajigList extends TestResource<V1ListMeta> implements KubernetesListObject {

	private final List<Thingamajig> items = new ArrayList<>();

	ThingamajigList() {
		super(Thingamajig.GROUP + "/v1", "ThingamajigList");
	}

	@Override
	public List<Thingamajig> getItems() {
		return this.items;
	}

}
