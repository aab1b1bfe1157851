package dev.kubereconciler.cache;

import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.cluster.WatchedCluster;
import dev.kubereconciler.reconcile.RequestMapper;

/**
 * A watch on a secondary type whose changes reconcile the keys its mapper returns, as
 * controller-runtime's {@code Watches(obj, EnqueueRequestsFromMapFunc(fn))}.
 *
 * @param <T> the watched type
 * @param type the watched type
 * @param mapper maps a changed object to the primary keys to reconcile
 * @param cluster the cluster it watches: {@link WatchedCluster#own()} maps within each
 * cluster the controller runs on; another maps across, to the clusters the requests name
 */
public record MappedWatch<T extends KubernetesObject>(Class<T> type, RequestMapper<? super T> mapper,
		WatchedCluster cluster) {

	public MappedWatch {
		Objects.requireNonNull(type, "type must not be null");
		Objects.requireNonNull(mapper, () -> "The mapped watch of " + type.getSimpleName() + " needs a mapper");
		Objects.requireNonNull(cluster, () -> "The mapped watch of " + type.getSimpleName() + " needs a cluster");
		if (!cluster.isOwn() && mapper instanceof IndexMapper) {
			// the index is the primary type's, cached in the clusters the controller runs
			// on
			throw new IllegalArgumentException("The mapped watch of " + type.getSimpleName() + " in cluster '" + cluster
					+ "' cannot map by an index: map across clusters with a RequestMapper");
		}
	}

	/**
	 * Create a watch that maps within each cluster its controller runs on.
	 * @param type the watched type
	 * @param mapper maps a changed object to the primary keys to reconcile
	 */
	public MappedWatch(Class<T> type, RequestMapper<? super T> mapper) {
		this(type, mapper, WatchedCluster.own());
	}

	/**
	 * Return a mapped watch whose changed objects reconcile the primary objects that an
	 * index of the primary type finds by the values {@code values} returns, looked up
	 * rather than scanned, as a controller-runtime map function that lists with
	 * {@code client.MatchingFields}.
	 * @param <T> the watched type
	 * @param type the watched type
	 * @param index the name of a {@link FieldIndex} declared on the primary type
	 * @param values the values of a changed object to look up
	 * @return the mapped watch
	 */
	public static <T extends KubernetesObject> MappedWatch<T> byIndex(Class<T> type, String index,
			Function<? super T, ? extends Collection<String>> values) {
		return new MappedWatch<>(type, new IndexMapper<T>(index, values));
	}

	/**
	 * Return whether this watch maps across clusters: its requests name their cluster.
	 * @return {@code false} for a watch of {@link WatchedCluster#own()}
	 */
	public boolean isAcross() {
		return !this.cluster.isOwn();
	}

}
