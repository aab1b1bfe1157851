package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * The list type of {@link Sprocket}.
 */
public class SprocketList extends TestResource<V1ListMeta> implements KubernetesListObject {

	private List<Sprocket> items = new ArrayList<>();

	public SprocketList() {
		super(Sprocket.GROUP + "/" + Sprocket.VERSION, "SprocketList");
	}

	@Override
	public List<Sprocket> getItems() {
		return this.items;
	}

}
