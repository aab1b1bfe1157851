package dev.kubereconciler.sample.widget;

import java.util.Objects;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * A {@code Widget} custom resource of {@code sample.kubereconciler.dev/v1alpha1}, written
 * by hand as client-java's generator would write it; {@link KubernetesResource} tells
 * kube-reconciler its coordinates.
 */
@KubernetesResource(group = Widget.GROUP, version = Widget.VERSION, kind = Widget.KIND, plural = Widget.PLURAL)
public class Widget implements KubernetesObject {

	/** The API group. */
	public static final String GROUP = "sample.kubereconciler.dev";

	/** The served version. */
	public static final String VERSION = "v1alpha1";

	/** The kind. */
	public static final String KIND = "Widget";

	/** The plural resource name. */
	public static final String PLURAL = "widgets";

	/** The {@code apiVersion} of every widget. */
	public static final String API_VERSION = GROUP + "/" + VERSION;

	@SerializedName("apiVersion")
	private String apiVersion = API_VERSION;

	@SerializedName("kind")
	private String kind = KIND;

	@SerializedName("metadata")
	private V1ObjectMeta metadata;

	@SerializedName("spec")
	private WidgetSpec spec;

	@SerializedName("status")
	private WidgetStatus status;

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	public void setApiVersion(String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	public void setKind(String kind) {
		this.kind = kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	public void setMetadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
	}

	public Widget metadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
		return this;
	}

	public WidgetSpec getSpec() {
		return this.spec;
	}

	public void setSpec(WidgetSpec spec) {
		this.spec = spec;
	}

	public Widget spec(WidgetSpec spec) {
		this.spec = spec;
		return this;
	}

	public WidgetStatus getStatus() {
		return this.status;
	}

	public void setStatus(WidgetStatus status) {
		this.status = status;
	}

	public Widget status(WidgetStatus status) {
		this.status = status;
		return this;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof Widget other) && Objects.equals(this.apiVersion, other.apiVersion)
				&& Objects.equals(this.kind, other.kind) && Objects.equals(this.metadata, other.metadata)
				&& Objects.equals(this.spec, other.spec) && Objects.equals(this.status, other.status);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata, this.spec, this.status);
	}

	@Override
	public String toString() {
		String name = (this.metadata != null) ? this.metadata.getNamespace() + "/" + this.metadata.getName() : "?";
		return "Widget " + name + " " + this.spec + " " + this.status;
	}

}
