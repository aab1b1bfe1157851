package dev.kubereconciler.controller;

import java.util.ArrayList;
import java.util.List;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * A list of {@link Gizmo gizmos}.
 */
public class GizmoList implements KubernetesListObject {

	@SerializedName("apiVersion")
	private String apiVersion;

	@SerializedName("kind")
	private String kind;

	@SerializedName("metadata")
	private V1ListMeta metadata;

	@SerializedName("items")
	private List<Gizmo> items = new ArrayList<>();

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
	public List<Gizmo> getItems() {
		return this.items;
	}

}
