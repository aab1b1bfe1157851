package dev.kubereconciler.crd;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.model.Categories;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.ShortNames;
import dev.kubereconciler.model.StorageVersion;

/**
 * The model classes of one CRD's versions, checked to agree on what a CRD has once (kind,
 * scope, short names, categories) and to name one storage version, in the order in which
 * Kubernetes ranks version priority.
 *
 * @param name the CRD's name, {@code <plural>.<group>}
 * @param resource the coordinates of the storage version, which the others share but for
 * the version
 * @param models the model classes, highest priority first
 * @param storage the model class of the stored version
 * @param shortNames the short names any class gives, or none
 * @param categories the categories any class gives, or none
 */
record CrdVersions(String name, ResourceCoordinates resource, List<Class<?>> models, Class<?> storage,
		List<String> shortNames, List<String> categories) {

	/**
	 * Group model classes by the CRD they declare a version of.
	 * @param models the model classes, each annotated with {@link ResourceCoordinates}
	 * @return the classes of each CRD by its name, both in the order met, each class once
	 * @throws IllegalArgumentException if a class is not annotated
	 */
	static Map<String, List<Class<?>>> byCrd(Collection<? extends Class<?>> models) {
		Map<String, LinkedHashSet<Class<?>>> byName = new LinkedHashMap<>();
		for (Class<?> model : models) {
			byName.computeIfAbsent(name(resource(model)), (name) -> new LinkedHashSet<>()).add(model);
		}
		Map<String, List<Class<?>>> crds = new LinkedHashMap<>();
		byName.forEach((name, classes) -> crds.put(name, List.copyOf(classes)));
		return crds;
	}

	/**
	 * Check and order the model classes of one CRD.
	 * @param models the model classes, one per version
	 * @return the CRD's versions
	 * @throws IllegalArgumentException naming the classes and the fix, if the classes
	 * declare different CRDs, disagree on the kind, the scope, the short names or the
	 * categories, declare one version twice, or, when there are several, do not mark
	 * exactly one with {@link StorageVersion}
	 */
	static CrdVersions of(Collection<? extends Class<?>> models) {
		List<Class<?>> classes = List.copyOf(new LinkedHashSet<>(models));
		if (classes.isEmpty()) {
			throw new IllegalArgumentException("No model class given: a CRD needs a class for each of its versions");
		}
		Class<?> first = classes.get(0);
		String name = name(resource(first));
		for (Class<?> model : classes) {
			if (!name(resource(model)).equals(name)) {
				throw new IllegalArgumentException(first.getName() + " declares the CRD " + name + " and "
						+ model.getName() + " the CRD " + name(resource(model)) + ": the versions of one CRD share "
						+ "its group and plural; generate the CRDs one by one, or write them all with "
						+ "write(Path, Collection)");
			}
		}
		agree(classes, name, "kind", (type) -> resource(type).kind(), "the same kind, or each a plural of its own");
		agree(classes, name, "scope", (type) -> resource(type).namespaced() ? "namespaced" : "cluster-scoped",
				"the same @ResourceCoordinates(namespaced)");
		agree(classes, name, "short names", CrdVersions::shortNames,
				"the same @ShortNames, or put @ShortNames on one of them only");
		agree(classes, name, "categories", CrdVersions::categories,
				"the same @Categories, or put @Categories on one of them only");
		Map<String, Class<?>> byVersion = new LinkedHashMap<>();
		for (Class<?> model : classes) {
			String version = resource(model).version();
			Class<?> sameVersion = byVersion.putIfAbsent(version, model);
			if (sameVersion != null) {
				throw new IllegalArgumentException(sameVersion.getName() + " and " + model.getName()
						+ " both declare version " + version + " of the CRD " + name
						+ ": give each class a version of its own in @ResourceCoordinates, or drop one of them");
			}
		}
		List<Class<?>> ordered = new ArrayList<>(classes);
		ordered.sort(Comparator.comparing((model) -> resource(model).version(), VersionPriority.ORDER));
		Class<?> storage = storage(name, ordered);
		return new CrdVersions(name, resource(storage), List.copyOf(ordered), storage,
				given(classes, CrdVersions::shortNames), given(classes, CrdVersions::categories));
	}

	/**
	 * Return the coordinates of a model class.
	 * @param model the model class
	 * @return its annotation
	 * @throws IllegalArgumentException if the class is not annotated
	 */
	static ResourceCoordinates resource(Class<?> model) {
		ResourceCoordinates resource = model.getAnnotation(ResourceCoordinates.class);
		if (resource == null) {
			throw new IllegalArgumentException(model.getName() + " has no CRD to generate: annotate it with "
					+ "@ResourceCoordinates(group, version, kind, plural)");
		}
		return resource;
	}

	static String name(ResourceCoordinates resource) {
		return resource.plural() + "." + resource.group();
	}

	private static Class<?> storage(String name, List<Class<?>> ordered) {
		if (ordered.size() == 1) {
			return ordered.get(0);
		}
		List<Class<?>> marked = ordered.stream()
			.filter((model) -> model.isAnnotationPresent(StorageVersion.class))
			.toList();
		if (marked.isEmpty()) {
			throw new IllegalArgumentException("The CRD " + name + " has versions " + describe(ordered)
					+ ", and none is marked as the one stored: annotate one of them, usually the newest, with @"
					+ StorageVersion.class.getSimpleName());
		}
		if (marked.size() > 1) {
			throw new IllegalArgumentException(marked.stream().map(Class::getName).collect(Collectors.joining(" and "))
					+ " are each marked @" + StorageVersion.class.getSimpleName() + " of the CRD " + name
					+ ", which stores one version: keep the annotation on one of them");
		}
		return marked.get(0);
	}

	// a value each class gives must be the same; an empty list is not given
	private static void agree(List<Class<?>> classes, String name, String what, Function<Class<?>, Object> value,
			String fix) {
		@Nullable Class<?> reference = null;
		Object expected = "";
		for (Class<?> model : classes) {
			Object actual = value.apply(model);
			if (actual instanceof List<?> list && list.isEmpty()) {
				continue;
			}
			if (reference == null) {
				reference = model;
				expected = actual;
			}
			else if (!expected.equals(actual)) {
				throw new IllegalArgumentException(reference.getName() + " (" + what + " " + expected + ") and "
						+ model.getName() + " (" + what + " " + actual + ") declare versions of the CRD " + name
						+ ", whose versions must agree on its " + what + ": give both " + fix);
			}
		}
	}

	private static List<String> given(List<Class<?>> classes, Function<Class<?>, List<String>> value) {
		return classes.stream().map(value).filter((names) -> !names.isEmpty()).findFirst().orElse(List.of());
	}

	private static List<String> shortNames(Class<?> model) {
		ShortNames shortNames = model.getAnnotation(ShortNames.class);
		return (shortNames != null) ? List.of(shortNames.value()) : List.of();
	}

	private static List<String> categories(Class<?> model) {
		Categories categories = model.getAnnotation(Categories.class);
		return (categories != null) ? List.of(categories.value()) : List.of();
	}

	private static String describe(List<Class<?>> models) {
		return models.stream()
			.map((model) -> resource(model).version() + " (" + model.getName() + ")")
			.collect(Collectors.joining(", "));
	}

}
