package dev.kubereconciler.controller;

import java.util.Map;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * A small custom resource with a status subresource, for tests that need
 * {@code metadata.generation} to move on spec changes only.
 */
@KubernetesResource(group = Gizmo.GROUP, version = Gizmo.VERSION, kind = "Gizmo", plural = Gizmo.PLURAL)
public class Gizmo implements KubernetesObject {

	static final String GROUP = "test.kubereconciler.dev";

	static final String VERSION = "v1";

	static final String PLURAL = "gizmos";

	@SerializedName("apiVersion")
	private String apiVersion = GROUP + "/" + VERSION;

	@SerializedName("kind")
	private String kind = "Gizmo";

	@SerializedName("metadata")
	private V1ObjectMeta metadata;

	@SerializedName("spec")
	private Map<String, Object> spec;

	@SerializedName("status")
	private Map<String, Object> status;

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public Gizmo metadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
		return this;
	}

	public Map<String, Object> getSpec() {
		return this.spec;
	}

	public Gizmo spec(Map<String, Object> spec) {
		this.spec = spec;
		return this;
	}

	public Map<String, Object> getStatus() {
		return this.status;
	}

}
