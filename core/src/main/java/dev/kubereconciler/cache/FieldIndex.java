package dev.kubereconciler.cache;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;

/**
 * An index of one cached type, declared by the application, as controller-runtime's
 * {@code FieldIndexer.IndexField}: the informer of the type keeps, for every value the
 * function returns, the objects that return it, so that a lookup by value
 * ({@code ReconcileContext.listByIndex}, {@link MappedWatch#byIndex}) reads those objects
 * instead of scanning the type.
 *
 * <p>
 * The function runs on every object the informer caches, after the cache transforms, on
 * the informer's thread: keep it quick, and return an empty collection for an object that
 * has no value. Values are compared as they are; a reference to a namespaced object is
 * best indexed as {@code namespace/name}, which a lookup then names the same way.
 *
 * @param <T> the indexed type
 * @param type the indexed type
 * @param name the index name, unique per type; names starting with
 * {@code kube-reconciler/} are the framework's own
 * @param values the values of an object, never {@code null}
 */
public record FieldIndex<T extends KubernetesObject>(Class<T> type, String name,
		Function<? super T, ? extends Collection<String>> values) {

	/** The prefix of the framework's own indexes, which no declared index may use. */
	public static final String RESERVED_PREFIX = "kube-reconciler/";

	public FieldIndex {
		Objects.requireNonNull(type, "The index's type must not be null");
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException(
					"The index of " + type.getSimpleName() + " needs a name, such as \"spec.secretName\"");
		}
		if (name.startsWith(RESERVED_PREFIX)) {
			throw new IllegalArgumentException("Index '" + name + "' of " + type.getSimpleName()
					+ ": names starting with '" + RESERVED_PREFIX + "' are the framework's own; choose another name");
		}
		Objects.requireNonNull(values, () -> "Index '" + name + "' of " + type.getSimpleName() + " needs a function");
	}

	/**
	 * Declare an index whose function returns one value, or {@code null} for none.
	 * @param <T> the indexed type
	 * @param type the indexed type
	 * @param name the index name
	 * @param value the value of an object, or {@code null}
	 * @return the index
	 */
	public static <T extends KubernetesObject> FieldIndex<T> of(Class<T> type, String name,
			Function<? super T, ? extends String> value) {
		Objects.requireNonNull(value, () -> "Index '" + name + "' needs a function");
		return new FieldIndex<>(type, name, (object) -> {
			String one = value.apply(object);
			return (one != null) ? List.of(one) : List.of();
		});
	}

	/**
	 * Return the values of an object, as a list the informer's indexer takes; a function
	 * that throws or returns {@code null} gives none.
	 * @param object an object of the type
	 * @return its values
	 */
	@SuppressWarnings("unchecked")
	public List<String> valuesOf(KubernetesObject object) {
		Collection<String> result = this.values.apply((T) object);
		return (result != null) ? List.copyOf(result) : List.of();
	}

}
