package dev.kubereconciler.autoconfigure.reconciler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.cache.MappedWatch;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.reconcile.RequestMapper;
import dev.kubereconciler.reconcile.UpdateFilter;
import dev.kubereconciler.reconcile.UpdatePredicate;
import dev.kubereconciler.reconcile.Watch;

/**
 * Resolves a controller's event filters and mapped watches from
 * {@code kube-reconciler.controllers.<name>.event-filters}, the {@code @Reconciler}
 * annotation, or a {@link ControllerDefinition} bean, looking custom filters and mappers
 * up as beans by name.
 *
 * <p>
 * The property, when set, replaces the filters of the annotation or bean as a whole (an
 * empty value turns filtering off), as properties win over code everywhere else.
 */
final class WatchSettings {

	private final Function<String, Object> beans;

	/**
	 * Create the resolver.
	 * @param beans looks a bean up by name, returning {@code null} when there is none
	 */
	WatchSettings(Function<String, Object> beans) {
		this.beans = beans;
	}

	void fromAnnotation(ControllerDefinitionBuilder<?> builder, String prefix, @Nullable List<String> property,
			UpdateFilter[] filters, String[] filterBeans, Watch[] maps, String method) {
		Setting.fromIf(property != null, prefix + ".event-filters", (origin) -> fromProperty(origin, property))
			.orElseGet("@Reconciler(updateFilterBeans) of " + method,
					(origin) -> fromAnnotation(origin, filters, filterBeans))
			.value()
			.forEach((filter) -> builder.updateFilter(filter.getKey(), filter.getValue()));
		for (Watch watch : maps) {
			map(builder, watch.type(), watch.mapper(), method);
		}
	}

	void fromBean(ControllerDefinitionBuilder<?> builder, String prefix, @Nullable List<String> property,
			ControllerDefinition bean) {
		Setting.fromIf(property != null, prefix + ".event-filters", (origin) -> fromProperty(origin, property))
			.orElse("ControllerDefinition bean '" + bean.name() + "'", List.copyOf(bean.updateFilters().entrySet()))
			.value()
			.forEach((filter) -> builder.updateFilter(filter.getKey(), filter.getValue()));
		bean.mappedWatches().forEach((watch) -> addMapped(builder, watch));
		// the bean's declared indexes, which the mapped watches by index look up
		bean.indexes().forEach(builder::index);
	}

	// a list, not a map, so that the builder refuses a filter named twice
	private List<Map.Entry<String, UpdatePredicate>> fromAnnotation(String origin, UpdateFilter[] filters,
			String[] filterBeans) {
		List<Map.Entry<String, UpdatePredicate>> resolved = new ArrayList<>();
		for (UpdateFilter filter : filters) {
			resolved.add(Map.entry(filter.label(), filter));
		}
		for (String name : filterBeans) {
			resolved.add(Map.entry(name, filterBean(name, origin,
					"Define an UpdatePredicate bean named '" + name + "' or remove it from updateFilterBeans.")));
		}
		return resolved;
	}

	private List<Map.Entry<String, UpdatePredicate>> fromProperty(String property, @Nullable List<String> names) {
		List<Map.Entry<String, UpdatePredicate>> resolved = new ArrayList<>();
		for (String name : (names != null) ? names : List.<String>of()) {
			String trimmed = name.trim();
			if (trimmed.isEmpty()) {
				continue;
			}
			UpdateFilter builtIn = UpdateFilter.fromLabel(trimmed);
			UpdatePredicate filter = (builtIn != null) ? builtIn : filterBean(trimmed, property,
					"Use a built-in filter (" + builtInLabels() + ") or the name of an UpdatePredicate bean.");
			resolved.add(Map.entry(trimmed, filter));
		}
		return resolved;
	}

	private UpdatePredicate filterBean(String name, String origin, String fix) {
		Object bean = this.beans.apply(name);
		if (bean instanceof UpdatePredicate predicate) {
			return predicate;
		}
		String problem = (bean == null) ? "no built-in filter or UpdatePredicate bean is named '" + name + "'"
				: "bean '" + name + "' is a " + bean.getClass().getName() + ", not an UpdatePredicate";
		throw new InvalidPropertyException(origin, name, problem, fix);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private void map(ControllerDefinitionBuilder<?> builder, Class<? extends KubernetesObject> type, String mapperName,
			String method) {
		Object bean = this.beans.apply(mapperName);
		if (!(bean instanceof RequestMapper<?> mapper)) {
			String problem = (bean == null) ? "no RequestMapper bean is named '" + mapperName + "'"
					: "bean '" + mapperName + "' is a " + bean.getClass().getName() + ", not a RequestMapper";
			throw new InvalidPropertyException("@Reconciler(maps) of " + method, mapperName, problem,
					"Define a RequestMapper<" + type.getSimpleName() + "> bean named '" + mapperName
							+ "' or fix the name in @Watch(mapper).");
		}
		builder.maps((Class) type, (RequestMapper) mapper);
	}

	// with the cluster it watches
	private static void addMapped(ControllerDefinitionBuilder<?> builder, MappedWatch<?> watch) {
		builder.maps(watch);
	}

	static String builtInLabels() {
		return Arrays.stream(UpdateFilter.values()).map(UpdateFilter::label).collect(Collectors.joining(", "));
	}

}
