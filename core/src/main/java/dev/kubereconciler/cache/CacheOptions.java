package dev.kubereconciler.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * How each type is cached, beside its {@link CacheTransforms}: a type can be read through
 * (no informer of its own; the reconcile context's reads go to the API server), as
 * controller-runtime's {@code client.CacheOptions.DisableFor}, or cached with label and
 * field selectors of its own, which the API server applies, as controller-runtime's
 * {@code cache.Options.ByObject}; and a type can have {@link FieldIndex indexes}, as
 * controller-runtime's {@code IndexField}.
 *
 * <p>
 * Types are named by their resource, as {@code kubectl} names them: the plural, followed
 * by {@code .group} outside the core group ({@code secrets}, {@code deployments.apps},
 * {@code backups.example.com}), so that properties can name types the application never
 * names in code. Instances are immutable.
 */
public final class CacheOptions {

	private static final CacheOptions DEFAULTS = new CacheOptions(Set.of(), Map.of(), List.of());

	// a DNS subdomain: the plural, then the group's labels
	private static final Pattern RESOURCE = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	// key=value, key==value or key!=value, comma-separated, as the API server parses them
	private static final Pattern FIELD_SELECTOR = Pattern
		.compile("[A-Za-z0-9_.\\-\\[\\]/]+(=|==|!=)[^,=!]*(,[A-Za-z0-9_.\\-\\[\\]/]+(=|==|!=)[^,=!]*)*");

	private final Set<String> readThrough;

	private final Map<String, Selectors> selectors;

	private final List<FieldIndex<?>> indexes;

	private CacheOptions(Set<String> readThrough, Map<String, Selectors> selectors, List<FieldIndex<?>> indexes) {
		this.readThrough = readThrough;
		this.selectors = selectors;
		this.indexes = indexes;
	}

	/**
	 * Return the defaults: every type a controller uses is cached whole by one informer,
	 * with no selector or index of the application's.
	 * @return the default options
	 */
	public static CacheOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Return the resource name of a model type, such as {@code secrets} or
	 * {@code deployments.apps}, by which these options name it.
	 * @param type the model type
	 * @return its resource name
	 */
	public static String resourceOf(Class<? extends KubernetesObject> type) {
		ResourceType resource = ResourceType.of(type);
		return (resource.group() == null || resource.group().isEmpty()) ? resource.plural()
				: resource.plural() + "." + resource.group();
	}

	/**
	 * Return these options with a type read through: it gets no informer for the
	 * reconcile context's reads, whose {@code get} and {@code list} go to the API server.
	 * @param type the model type
	 * @return new options
	 */
	public CacheOptions readThrough(Class<? extends KubernetesObject> type) {
		return readThrough(resourceOf(type));
	}

	/**
	 * Return these options with a type read through, named by its resource.
	 * @param resource the resource, such as {@code secrets} or
	 * {@code backups.example.com}
	 * @return new options
	 * @throws IllegalArgumentException if the name is no resource name, or the type has
	 * selectors
	 */
	public CacheOptions readThrough(String resource) {
		requireResource(resource);
		if (this.selectors.containsKey(resource)) {
			throw new IllegalArgumentException(bothMessage(resource));
		}
		Set<String> types = new LinkedHashSet<>(this.readThrough);
		types.add(resource);
		return new CacheOptions(Collections.unmodifiableSet(types), this.selectors, this.indexes);
	}

	/**
	 * Return these options with a type cached only where the API server's selectors
	 * match: its informer lists and watches with them, whichever controllers use it.
	 * @param type the model type
	 * @param labelSelector a label selector in {@code kubectl -l} syntax, empty for none
	 * @param fieldSelector a field selector such as {@code type=kubernetes.io/tls}, empty
	 * for none
	 * @return new options
	 */
	public CacheOptions selectors(Class<? extends KubernetesObject> type, String labelSelector, String fieldSelector) {
		return selectors(resourceOf(type), labelSelector, fieldSelector);
	}

	/**
	 * Return these options with a type, named by its resource, cached only where the API
	 * server's selectors match.
	 * @param resource the resource, such as {@code secrets}
	 * @param labelSelector a label selector in {@code kubectl -l} syntax, empty for none
	 * @param fieldSelector a field selector such as {@code type=kubernetes.io/tls}, empty
	 * for none
	 * @return new options
	 * @throws IllegalArgumentException if a name or selector does not parse, or the type
	 * is read through
	 */
	public CacheOptions selectors(String resource, String labelSelector, String fieldSelector) {
		requireResource(resource);
		if (this.readThrough.contains(resource)) {
			throw new IllegalArgumentException(bothMessage(resource));
		}
		String label = (labelSelector != null) ? labelSelector.trim() : "";
		String field = (fieldSelector != null) ? fieldSelector.replace(" ", "") : "";
		if (!label.isEmpty()) {
			LabelSelectorMatcher.parse(label);
		}
		if (!field.isEmpty() && !FIELD_SELECTOR.matcher(field).matches()) {
			throw new IllegalArgumentException("The field selector '" + fieldSelector + "' of " + resource
					+ " does not parse; write key=value, key==value or key!=value, separated by commas, "
					+ "such as metadata.name=web,type!=kubernetes.io/tls");
		}
		Map<String, Selectors> selectors = new LinkedHashMap<>(this.selectors);
		selectors.put(resource, new Selectors(label, field));
		return new CacheOptions(this.readThrough, Collections.unmodifiableMap(selectors), this.indexes);
	}

	/**
	 * Return these options with an index of a type.
	 * @param index the index
	 * @return new options
	 * @throws IllegalArgumentException if the type already has an index of that name
	 */
	public CacheOptions index(FieldIndex<?> index) {
		for (FieldIndex<?> existing : this.indexes) {
			if (existing.type().equals(index.type()) && existing.name().equals(index.name())) {
				if (existing.equals(index)) {
					return this;
				}
				throw new IllegalArgumentException("Two indexes of " + index.type().getSimpleName() + " are named '"
						+ index.name() + "'; give each its own name");
			}
		}
		List<FieldIndex<?>> indexes = new ArrayList<>(this.indexes);
		indexes.add(index);
		return new CacheOptions(this.readThrough, this.selectors, List.copyOf(indexes));
	}

	/**
	 * Return whether a type is read through.
	 * @param type the model type
	 * @return whether the reconcile context reads it from the API server
	 */
	public boolean isReadThrough(Class<? extends KubernetesObject> type) {
		return !this.readThrough.isEmpty() && this.readThrough.contains(resourceOf(type));
	}

	/**
	 * Return the resources read through.
	 * @return their names
	 */
	public Set<String> readThroughResources() {
		return this.readThrough;
	}

	/**
	 * Return the label selector the API server applies to a type's informer.
	 * @param type the model type
	 * @return the selector, or {@code null} for none
	 */
	public @Nullable String labelSelector(Class<? extends KubernetesObject> type) {
		Selectors selectors = this.selectors.isEmpty() ? null : this.selectors.get(resourceOf(type));
		return (selectors != null && !selectors.label().isEmpty()) ? selectors.label() : null;
	}

	/**
	 * Return the field selector the API server applies to a type's informer.
	 * @param type the model type
	 * @return the selector, or {@code null} for none
	 */
	public @Nullable String fieldSelector(Class<? extends KubernetesObject> type) {
		Selectors selectors = this.selectors.isEmpty() ? null : this.selectors.get(resourceOf(type));
		return (selectors != null && !selectors.field().isEmpty()) ? selectors.field() : null;
	}

	/**
	 * Return the indexes of a type.
	 * @param type the model type
	 * @return its indexes, in the order declared
	 */
	public List<FieldIndex<?>> indexes(Class<?> type) {
		return this.indexes.stream().filter((index) -> index.type().equals(type)).toList();
	}

	/**
	 * Return every declared index.
	 * @return the indexes
	 */
	public List<FieldIndex<?>> indexes() {
		return this.indexes;
	}

	private static void requireResource(String resource) {
		if (resource == null || !RESOURCE.matcher(resource).matches()) {
			throw new IllegalArgumentException("'" + resource + "' is not a resource name; name the type as kubectl "
					+ "does, by its plural and, outside the core group, its group: secrets, deployments.apps, "
					+ "backups.example.com");
		}
	}

	private static String bothMessage(String resource) {
		return resource + " cannot be both read through and cached with selectors: a read-through type has no "
				+ "informer to select for; choose one";
	}

	/**
	 * The selectors of one type, empty for none.
	 */
	private record Selectors(String label, String field) {
	}

}
