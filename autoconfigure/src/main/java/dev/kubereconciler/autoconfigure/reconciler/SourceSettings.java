package dev.kubereconciler.autoconfigure.reconciler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.SourceProperties;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.source.PeriodicSource;
import dev.kubereconciler.source.Source;

/**
 * Resolves a controller's sources: the {@code Source} beans that
 * {@code @Reconciler(sources)} names, or a definition bean's own, with the periods that
 * {@code kube-reconciler.controllers.<name>.sources.<source>.period} sets.
 */
final class SourceSettings {

	private final Function<String, @Nullable Object> beans;

	SourceSettings(Function<String, @Nullable Object> beans) {
		this.beans = beans;
	}

	void fromAnnotation(ControllerDefinitionBuilder<?> builder, String prefix, Map<String, SourceProperties> overrides,
			String[] names, String method) {
		List<Source> sources = new ArrayList<>();
		for (String name : names) {
			Object bean = this.beans.apply(name);
			if (!(bean instanceof Source source)) {
				String problem = (bean == null) ? "no Source bean is named '" + name + "'"
						: "bean '" + name + "' is a " + bean.getClass().getName() + ", not a Source";
				throw new InvalidPropertyException("@Reconciler(sources) of " + method, name, problem,
						"Define a Source bean named '" + name + "', such as Source.channel(\"" + name
								+ "\"), or fix the name in @Reconciler(sources).");
			}
			sources.add(source);
		}
		apply(builder, prefix, overrides, sources);
	}

	void fromBean(ControllerDefinitionBuilder<?> builder, String prefix, Map<String, SourceProperties> overrides,
			ControllerDefinition bean) {
		apply(builder, prefix, overrides, bean.sources());
	}

	private static void apply(ControllerDefinitionBuilder<?> builder, String prefix,
			Map<String, SourceProperties> overrides, List<Source> sources) {
		for (String name : overrides.keySet()) {
			if (sources.stream().noneMatch((source) -> source.name().equals(name))) {
				String declared = sources.stream().map(Source::name).collect(Collectors.joining(", "));
				throw new InvalidPropertyException(prefix + ".sources." + name, name,
						"the controller has no source named '" + name + "'",
						declared.isEmpty() ? "Declare the source, or remove the property."
								: "Use the name of one of its sources (" + declared + "), or remove the property.");
			}
		}
		for (Source source : sources) {
			SourceProperties properties = overrides.get(source.name());
			Duration period = (properties != null) ? properties.getPeriod() : null;
			builder.source((period != null)
					? withPeriod(prefix + ".sources." + source.name() + ".period", source, period) : source);
		}
	}

	private static Source withPeriod(String property, Source source, Duration period) {
		if (!(source instanceof PeriodicSource periodic)) {
			throw new InvalidPropertyException(property, period,
					"source '" + source.name() + "' is a " + source.kind() + " source, which has no period",
					"Remove the property; only polling, per-object polling and timer sources have a period.");
		}
		if (period.isNegative() || period.isZero()) {
			throw new InvalidPropertyException(property, period, "a period must be positive",
					"Set it to a positive duration, such as 30s.");
		}
		return periodic.withPeriod(period);
	}

}
