package dev.kubereconciler.model;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * The base class of a custom resource's model: {@code apiVersion} and {@code kind} from
 * the class's {@link ResourceCoordinates}, {@code metadata}, a {@code spec} and a
 * {@code status}, with no list class to write.
 *
 * <pre class="code">
 * &#64;ResourceCoordinates(group = "example.com", version = "v1", kind = "Backup", plural = "backups")
 * public class Backup extends CustomResource&lt;BackupSpec, BackupStatus&gt; {
 * }
 * </pre>
 *
 * <p>
 * Spec and status may be plain classes with a no-argument constructor or records. The
 * list of a subclass is read as a {@link CustomResourceList} of it.
 *
 * @param <S> the type of the spec
 * @param <T> the type of the status
 */
public abstract class CustomResource<S, T> implements KubernetesObject {

	private static final ClassValue<ResourceCoordinates> RESOURCES = new ClassValue<>() {

		@Override
		protected ResourceCoordinates computeValue(Class<?> type) {
			ResourceCoordinates resource = type.getAnnotation(ResourceCoordinates.class);
			if (resource == null) {
				throw new IllegalStateException(type.getName() + " extends CustomResource but has no @"
						+ ResourceCoordinates.class.getSimpleName() + ": annotate it with @ResourceCoordinates(group, "
						+ "version, kind, plural), which gives its apiVersion and kind");
			}
			return resource;
		}

	};

	private String apiVersion;

	private String kind;

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private @Nullable S spec;

	private @Nullable T status;

	/**
	 * Create a resource whose {@code apiVersion} and {@code kind} are those of its
	 * class's {@link ResourceCoordinates}.
	 * @throws IllegalStateException if the class has no {@link ResourceCoordinates}
	 */
	protected CustomResource() {
		ResourceCoordinates resource = RESOURCES.get(getClass());
		this.apiVersion = resource.group().isEmpty() ? resource.version() : resource.group() + "/" + resource.version();
		this.kind = resource.kind();
	}

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	/**
	 * Set the API version. client-java's informers call it for each listed item, as they
	 * call it on its own models.
	 * @param apiVersion the API version, such as {@code example.com/v1}
	 */
	public void setApiVersion(String apiVersion) {
		this.apiVersion = apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	/**
	 * Set the kind. client-java's informers call it for each listed item, as they call it
	 * on its own models.
	 * @param kind the kind, such as {@code Backup}
	 */
	public void setKind(String kind) {
		this.kind = kind;
	}

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	/**
	 * Set the metadata.
	 * @param metadata the metadata
	 */
	public void setMetadata(V1ObjectMeta metadata) {
		this.metadata = metadata;
	}

	/**
	 * Return the spec.
	 * @return the spec, or {@code null} when unset
	 */
	public @Nullable S getSpec() {
		return this.spec;
	}

	/**
	 * Set the spec.
	 * @param spec the spec
	 */
	public void setSpec(@Nullable S spec) {
		this.spec = spec;
	}

	/**
	 * Return the status, which a reconciler writes with
	 * {@link ReconcileContext#updateStatus(KubernetesObject)}.
	 * @return the status, or {@code null} when unset
	 */
	public @Nullable T getStatus() {
		return this.status;
	}

	/**
	 * Set the status.
	 * @param status the status
	 */
	public void setStatus(@Nullable T status) {
		this.status = status;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (other == null || getClass() != other.getClass()) {
			return false;
		}
		CustomResource<?, ?> resource = (CustomResource<?, ?>) other;
		return Objects.equals(this.apiVersion, resource.apiVersion) && Objects.equals(this.kind, resource.kind)
				&& Objects.equals(this.metadata, resource.metadata) && Objects.equals(this.spec, resource.spec)
				&& Objects.equals(this.status, resource.status);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.apiVersion, this.kind, this.metadata, this.spec, this.status);
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "{apiVersion=" + this.apiVersion + ", kind=" + this.kind + ", metadata="
				+ this.metadata + ", spec=" + this.spec + ", status=" + this.status + "}";
	}

}
