package dev.kubereconciler.crd;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * A generic model base with {@code spec} and {@code status} of type arguments, as a
 * {@code CustomResource<S, T>} base class declares them.
 *
 * @param <S> the spec type
 * @param <T> the status type
 */
public abstract class GenericResource<S, T> implements KubernetesObject {

	private @Nullable String apiVersion;

	private @Nullable String kind;

	private V1ObjectMeta metadata = new V1ObjectMeta();

	private @Nullable S spec;

	private @Nullable T status;

	@Override
	public V1ObjectMeta getMetadata() {
		return this.metadata;
	}

	@Override
	public @Nullable String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public @Nullable String getKind() {
		return this.kind;
	}

	public @Nullable S getSpec() {
		return this.spec;
	}

	public @Nullable T getStatus() {
		return this.status;
	}

}
