package dev.kubereconciler.cache;

import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * The mapper of a {@link MappedWatch#byIndex mapped watch by index}: a changed object
 * reconciles the controller's primary objects whose {@link FieldIndex} named
 * {@code index} holds one of the values it returns, found by a lookup in the primary
 * type's informer rather than a scan. The manager binds it to that informer when it wires
 * the watch; it maps nothing on its own.
 *
 * @param <M> the watched type
 * @param index the name of an index declared on the controller's primary type
 * @param values the values of a changed object to look up, such as {@code namespace/name}
 * of a Secret
 */
public record IndexMapper<M extends KubernetesObject>(String index,
		Function<? super M, ? extends Collection<String>> values) implements RequestMapper<M> {

	public IndexMapper {
		if (index == null || index.isBlank()) {
			throw new IllegalArgumentException(
					"A mapped watch by index needs the name of an index of the primary type");
		}
		Objects.requireNonNull(values, () -> "The mapped watch by index '" + index + "' needs a function");
	}

	/**
	 * Not called: the manager looks the values up in the index of the primary type.
	 * @param object the changed object
	 * @return never
	 * @throws IllegalStateException always
	 */
	@Override
	public Collection<Request> map(M object) {
		throw new IllegalStateException("The mapped watch by index '" + this.index
				+ "' maps only in a controller manager, which looks its values up in the primary type's index");
	}

}
