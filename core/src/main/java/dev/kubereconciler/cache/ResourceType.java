package dev.kubereconciler.cache;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.apimachinery.GroupVersionResource;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.util.ModelMapper;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * The API coordinates of a client-java model type: group, version, kind, plural resource
 * name and list type.
 *
 * @param apiType the model class, for example {@code V1ConfigMap}
 * @param listType the list model class, for example {@code V1ConfigMapList}, or
 * {@link CustomResourceList} for a model without a list class of its own
 * @param group the API group, empty for the core group
 * @param version the API version, for example {@code v1}
 * @param kind the kind, for example {@code ConfigMap}
 * @param plural the plural resource name, for example {@code configmaps}
 */
public record ResourceType(Class<? extends KubernetesObject> apiType, Class<? extends KubernetesListObject> listType,
		String group, String version, String kind, String plural) {

	public ResourceType {
		Objects.requireNonNull(apiType, "apiType must not be null");
		Objects.requireNonNull(listType, "listType must not be null");
	}

	/**
	 * Resolve the coordinates of a client-java model class. Built-in models are read off
	 * their class name, without {@link ModelMapper}, whose first use scans client-java's
	 * whole model package; a custom resource is either annotated with
	 * {@link ResourceCoordinates}, which registers it here, or registered beforehand with
	 * {@link ModelMapper#addModelMap(String, String, String, String, Class, Class)}.
	 * @param apiType the model class
	 * @return the coordinates
	 * @throws IllegalArgumentException if the class carries no client-java model metadata
	 */
	public static ResourceType of(Class<?> apiType) {
		if (!KubernetesObject.class.isAssignableFrom(apiType)) {
			throw new IllegalArgumentException(apiType.getName() + " is not a client-java KubernetesObject");
		}
		@SuppressWarnings("unchecked")
		Class<? extends KubernetesObject> objectType = (Class<? extends KubernetesObject>) apiType;
		GroupVersionKind builtIn = BuiltInModels.of(apiType);
		if (builtIn != null) {
			return new ResourceType(objectType, listTypeOf(apiType), builtIn.getGroup(), builtIn.getVersion(),
					builtIn.getKind(), pluralize(builtIn.getKind()));
		}
		registerAnnotated(objectType);
		GroupVersionResource registered = ModelMapper.getGroupVersionResourceByClass(apiType);
		GroupVersionKind gvk = Optional.ofNullable(ModelMapper.getGroupVersionKindByClass(apiType))
			.or(() -> ModelMapper.preBuiltGetGroupVersionKindByClass(apiType))
			.orElseThrow(() -> new IllegalArgumentException(apiType.getName()
					+ " has no client-java model metadata; annotate it with @ResourceCoordinates(group, version, kind, "
					+ "plural) or register it with ModelMapper.addModelMap(group, version, kind, plural, "
					+ apiType.getSimpleName() + ".class, " + apiType.getSimpleName() + "List.class)"));
		String plural = (registered != null) ? registered.getResource() : pluralize(gvk.getKind());
		String group = (gvk.getGroup() == null || gvk.getGroup().isEmpty()) ? BuiltInGroups.of(apiType, gvk.getKind())
				: gvk.getGroup();
		return new ResourceType(objectType, listTypeOf(apiType), group, gvk.getVersion(), gvk.getKind(), plural);
	}

	private static void registerAnnotated(Class<? extends KubernetesObject> apiType) {
		ResourceCoordinates resource = apiType.getAnnotation(ResourceCoordinates.class);
		if (resource != null && ModelMapper.getGroupVersionKindByClass(apiType) == null) {
			Class<? extends KubernetesListObject> listType = listTypeOf(apiType);
			if (listType == CustomResourceList.class) {
				// every such model shares the generic list class, which so maps to no one
				// kind
				ModelMapper.addModelMap(resource.group(), resource.version(), resource.kind(), resource.plural(),
						resource.namespaced(), apiType);
			}
			else {
				ModelMapper.addModelMap(resource.group(), resource.version(), resource.kind(), resource.plural(),
						resource.namespaced(), apiType, listType);
			}
		}
	}

	/**
	 * Return the {@code apiVersion}, for example {@code v1} or {@code apps/v1}.
	 * @return the API version
	 */
	public String apiVersion() {
		return (this.group == null || this.group.isEmpty()) ? this.version : this.group + "/" + this.version;
	}

	/**
	 * Return a short display name such as {@code v1/ConfigMap}.
	 * @return the display name
	 */
	public String displayName() {
		return apiVersion() + "/" + this.kind;
	}

	/**
	 * The model's own list class, {@code <Name>List}, when it has one; otherwise the
	 * generic list, which the informers read with the model as its item type.
	 */
	@SuppressWarnings("unchecked")
	private static Class<? extends KubernetesListObject> listTypeOf(Class<?> apiType) {
		try {
			Class<?> listType = Class.forName(apiType.getName() + "List", false, apiType.getClassLoader());
			if (KubernetesListObject.class.isAssignableFrom(listType)) {
				return (Class<? extends KubernetesListObject>) listType;
			}
		}
		catch (ClassNotFoundException ex) {
			// no list class of its own
		}
		return CustomResourceList.class;
	}

	static String pluralize(String kind) {
		String lower = kind.toLowerCase(Locale.ROOT);
		if (lower.equals("endpoints")) {
			return lower;
		}
		if (lower.endsWith("y") && lower.length() > 1 && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
			return lower.substring(0, lower.length() - 1) + "ies";
		}
		if (lower.endsWith("s") || lower.endsWith("x") || lower.endsWith("ch") || lower.endsWith("sh")) {
			return lower + "es";
		}
		return lower + "s";
	}

}
