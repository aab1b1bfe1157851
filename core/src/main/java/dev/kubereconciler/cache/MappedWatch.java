package dev.kubereconciler.cache;

import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.reconcile.RequestMapper;

/**
 * A watch on a secondary type whose changes reconcile the keys its mapper returns, as
 * controller-runtime's {@code Watches(obj, EnqueueRequestsFromMapFunc(fn))}.
 *
 * @param <T> the watched type
 * @param type the watched type
 * @param mapper maps a changed object to the primary keys to reconcile
 */
public record MappedWatch<T extends KubernetesObject>(Class<T> type, RequestMapper<? super T> mapper) {

	public MappedWatch {
		Objects.requireNonNull(type, "type must not be null");
		Objects.requireNonNull(mapper, () -> "The mapped watch of " + type.getSimpleName() + " needs a mapper");
	}

}
