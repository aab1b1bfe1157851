package dev.kubereconciler.autoconfigure.reconciler;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;

import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.KubernetesNames;
import dev.kubereconciler.autoconfigure.PropertyDurations;
import dev.kubereconciler.autoconfigure.RateLimiterCustomizer;
import dev.kubereconciler.autoconfigure.RateLimiterFactory;
import dev.kubereconciler.autoconfigure.RateLimiterProperties;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.cache.LabelSelectorMatcher;
import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Watch;

/**
 * Turns {@code @Reconciler} methods, {@link ControllerDefinition} beans and
 * {@code kube-reconciler.*} properties into the definitions a manager runs.
 *
 * <p>
 * For an annotated method, each setting comes from {@code controllers.<name>.*}, else
 * from the annotation, else from {@code defaults.*}. A {@link ControllerDefinition} bean
 * carries its own settings, which only {@code controllers.<name>.*} overrides.
 */
public final class ControllerDefinitionResolver {

	private static final String PREFIX = "kube-reconciler.controllers.";

	private static final String DEFAULTS = "kube-reconciler.defaults.";

	private final KubeReconcilerProperties properties;

	private final RateLimiterFactory limiters;

	private final List<RateLimiterCustomizer> customizers;

	private final WatchSettings watchSettings;

	private final SourceSettings sourceSettings;

	private final DependentBeans dependentBeans;

	private final DependentSettings dependentSettings;

	public ControllerDefinitionResolver(KubeReconcilerProperties properties,
			Function<String, @Nullable RateLimiter<Request>> limiterBeans, List<RateLimiterCustomizer> customizers,
			Function<String, @Nullable Object> beans, Function<String, @Nullable ResolvableType> beanTypes,
			Function<Class<?>, List<String>> beanNames) {
		this.properties = properties;
		this.limiters = new RateLimiterFactory(limiterBeans);
		this.customizers = customizers;
		this.watchSettings = new WatchSettings(beans);
		this.sourceSettings = new SourceSettings(beans);
		this.dependentBeans = new DependentBeans(beanNames, beans, beanTypes);
		this.dependentSettings = new DependentSettings(beans, this.dependentBeans);
	}

	/**
	 * Resolve the definitions to run, leaving out disabled controllers.
	 * @param methods the {@code @Reconciler} methods
	 * @param beans the {@link ControllerDefinition} beans
	 * @return the definitions
	 */
	public List<ControllerDefinition> resolve(List<ReconcilerMethod> methods, List<ControllerDefinition> beans) {
		Map<String, String> origins = new LinkedHashMap<>();
		List<ControllerDefinition> resolved = new ArrayList<>();
		List<Runnable> deferred = new ArrayList<>();
		DependentBeans.Claims dependents = this.dependentBeans.claim(methods, beans);
		for (ReconcilerMethod method : methods) {
			String name = nameOf(method);
			register(origins, name, "@Reconciler method " + method.description());
			deferred.add(() -> add(resolved, name,
					(overrides) -> DependentSettings.apply(Finalizers
						.apply(fromAnnotation(name, method, overrides, dependents.of(method)), method, overrides),
							overrides)));
		}
		for (ControllerDefinition bean : beans) {
			register(origins, bean.name(), "ControllerDefinition bean '" + bean.name() + "'");
			deferred.add(() -> add(resolved, bean.name(), (overrides) -> DependentSettings
				.apply(Finalizers.apply(fromBean(bean, overrides), null, overrides), overrides)));
		}
		for (String name : this.properties.getControllers().keySet()) {
			if (!origins.containsKey(name)) {
				throw new InvalidPropertyException(PREFIX + name, name, "no controller is named '" + name + "'",
						"Use the name of a controller ("
								+ (origins.isEmpty() ? "there are none" : String.join(", ", origins.keySet()))
								+ ") or remove the entry.");
			}
		}
		deferred.forEach(Runnable::run);
		dependents.requireAllClaimed();
		return resolved;
	}

	private void add(List<ControllerDefinition> resolved, String name,
			Function<ControllerProperties, ControllerDefinition> factory) {
		ControllerProperties overrides = this.properties.getControllers().get(name);
		if (overrides == null) {
			overrides = new ControllerProperties();
		}
		if (!Boolean.FALSE.equals(overrides.getEnabled())) {
			resolved.add(factory.apply(overrides));
		}
	}

	private static void register(Map<String, String> origins, String name, String origin) {
		String previous = origins.putIfAbsent(name, origin);
		if (previous != null) {
			throw new IllegalStateException("Duplicate controller name '" + name + "': " + origin + " and " + previous
					+ " both use it; give one of them another name");
		}
	}

	static String nameOf(ReconcilerMethod method) {
		Reconciler annotation = method.annotation();
		ResourceType watched = resourceType(method, method.watches());
		for (Class<? extends KubernetesObject> owned : annotation.owns()) {
			resourceType(method, owned);
		}
		for (Watch mapped : annotation.maps()) {
			resourceType(method, mapped.type());
		}
		return annotation.name().isEmpty() ? watched.kind().toLowerCase(Locale.ROOT) : annotation.name();
	}

	private static ResourceType resourceType(ReconcilerMethod method, Class<? extends KubernetesObject> type) {
		try {
			return ResourceType.of(type);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@Reconciler method " + method.description() + ": " + ex.getMessage(), ex);
		}
	}

	private ControllerDefinition fromAnnotation(String name, ReconcilerMethod method, ControllerProperties overrides,
			List<String> dependents) {
		Reconciler annotation = method.annotation();
		KubeReconcilerProperties.Defaults defaults = this.properties.getDefaults();
		String prefix = PREFIX + name;
		String of = " of " + method.description();
		ControllerDefinitionBuilder<?> builder = ControllerDefinition.builder(method.watches())
			.named(name)
			.namespaces(Setting.<Collection<String>>from(prefix + ".namespaces", overrides.getNamespaces())
				.orElse("@Reconciler(namespaces)" + of, List.of(annotation.namespaces()))
				.to(ControllerDefinitionResolver::namespaces))
			// a selector is named by its property wherever it came from
			.labelSelector(Setting.from(prefix + ".label-selector", overrides.getLabelSelector())
				.orElse(prefix + ".label-selector", annotation.labelSelector())
				.to(ControllerDefinitionResolver::labelSelector))
			.maxConcurrentReconciles(Setting
				.from(prefix + ".max-concurrent-reconciles", overrides.getMaxConcurrentReconciles())
				.or("@Reconciler(maxConcurrentReconciles)" + of, annotation.maxConcurrentReconciles(), (n) -> n != -1)
				.orElse(DEFAULTS + "max-concurrent-reconciles", defaults.getMaxConcurrentReconciles())
				.to(ControllerDefinitionResolver::requireWorkers))
			.rateLimiter(customize(name, limiter(prefix, overrides, annotation.rateLimiter(), method.description())))
			.reconcileTimeout(Setting.from(prefix + ".reconcile-timeout", overrides.getReconcileTimeout())
				.orElse(DEFAULTS + "reconcile-timeout", defaults.getReconcileTimeout())
				.to(PropertyDurations::requireNotNegative))
			.cacheSyncTimeout(Setting.from(prefix + ".cache-sync-timeout", overrides.getCacheSyncTimeout())
				.orElse(DEFAULTS + "cache-sync-timeout", defaults.getCacheSyncTimeout())
				.to(PropertyDurations::requirePositive))
			.resyncPeriod(Setting.from(prefix + ".resync-period", overrides.getResyncPeriod())
				.orElse(DEFAULTS + "resync-period", defaults.getResyncPeriod())
				.to(PropertyDurations::requireNotNegative));
		for (Class<? extends KubernetesObject> owned : annotation.owns()) {
			builder.owns(owned);
		}
		this.watchSettings.fromAnnotation(builder, prefix, overrides.getEventFilters(), annotation.updateFilters(),
				annotation.updateFilterBeans(), annotation.maps(), method.description());
		this.sourceSettings.fromAnnotation(builder, prefix, overrides.getSources(), annotation.sources(),
				method.description());
		builder.clusters(Setting.from(prefix + ".clusters", overrides.getClusters())
			.orElse("@Reconciler(clusters)" + of, annotation.clusters())
			.value());
		return this.dependentSettings.reconcile(builder, name, method, dependents);
	}

	/**
	 * The limiter of an annotated controller. Properties replace a bean that the
	 * annotation names, but cannot tune it.
	 */
	private RateLimiter<Request> limiter(String prefix, ControllerProperties overrides, String bean, String method) {
		RateLimiterProperties defaults = this.properties.getDefaults().getRateLimiter();
		if (!overrides.getRateLimiter().isEmpty() && !bean.isEmpty()) {
			requireReplacement(prefix, overrides.getRateLimiter(),
					"the RateLimiter bean '" + bean + "' of @Reconciler(rateLimiter) on " + method);
		}
		return Setting
			.<RateLimiter<Request>>fromIf(!overrides.getRateLimiter().isEmpty(), prefix + ".rate-limiter",
					(property) -> this.limiters.create(property, overrides.getRateLimiter().inheritFrom(defaults)))
			.orIf(!bean.isEmpty(), "@Reconciler(rateLimiter) of " + method,
					(origin) -> this.limiters.bean(origin, bean))
			.orElseGet(DEFAULTS + "rate-limiter", (property) -> this.limiters.create(property, defaults))
			.value();
	}

	private ControllerDefinition fromBean(ControllerDefinition bean, ControllerProperties overrides) {
		String prefix = PREFIX + bean.name();
		String origin = "ControllerDefinition bean '" + bean.name() + "'";
		RateLimiterProperties limiter = overrides.getRateLimiter();
		if (!limiter.isEmpty()) {
			requireReplacement(prefix, limiter, "the limiter of " + origin);
		}
		ControllerDefinitionBuilder<?> builder = ControllerDefinition.builder(bean.watches())
			.named(bean.name())
			.namespaces(Setting.<Collection<String>>from(prefix + ".namespaces", overrides.getNamespaces())
				.orElse("the namespaces of " + origin, bean.namespaces())
				.to(ControllerDefinitionResolver::namespaces))
			.labelSelector(Setting.from(prefix + ".label-selector", overrides.getLabelSelector())
				.orElse(prefix + ".label-selector", bean.labelSelector().toString())
				.to(ControllerDefinitionResolver::labelSelector))
			// named by its property either way: the bean's own count was checked
			.maxConcurrentReconciles(
					Setting.from(prefix + ".max-concurrent-reconciles", overrides.getMaxConcurrentReconciles())
						.orElse(prefix + ".max-concurrent-reconciles", bean.maxConcurrentReconciles())
						.to(ControllerDefinitionResolver::requireWorkers))
			.rateLimiter(customize(bean.name(),
					Setting
						.fromIf(!limiter.isEmpty(), prefix + ".rate-limiter",
								(property) -> this.limiters.create(property,
										limiter.inheritFrom(this.properties.getDefaults().getRateLimiter())))
						.orElse(origin, bean.rateLimiter())
						.value()))
			.reconcileTimeout(Setting.from(prefix + ".reconcile-timeout", overrides.getReconcileTimeout())
				.orElse("the reconcile-timeout of " + origin, bean.reconcileTimeout())
				.to(PropertyDurations::requireNotNegative))
			.cacheSyncTimeout(Setting.from(prefix + ".cache-sync-timeout", overrides.getCacheSyncTimeout())
				.orElse("the cache-sync-timeout of " + origin, bean.cacheSyncTimeout())
				.to(PropertyDurations::requirePositive))
			.resyncPeriod(Setting.from(prefix + ".resync-period", overrides.getResyncPeriod())
				.orElse("the resync-period of " + origin, bean.resyncPeriod())
				.to(PropertyDurations::requireNotNegative));
		bean.owns().forEach(builder::owns);
		this.watchSettings.fromBean(builder, prefix, overrides.getEventFilters(), bean);
		this.sourceSettings.fromBean(builder, prefix, overrides.getSources(), bean);
		builder.clusters(Setting.from(prefix + ".clusters", overrides.getClusters())
			.orElse("the clusters of " + origin, bean.clusters())
			.value());
		return builder.reconcile(bean.reconciler());
	}

	private RateLimiter<Request> customize(String name, RateLimiter<Request> limiter) {
		RateLimiter<Request> customized = limiter;
		for (RateLimiterCustomizer customizer : this.customizers) {
			customized = customizer.customize(name, customized);
		}
		return customized;
	}

	/**
	 * Properties replace a limiter that code chose; they cannot tune it. Refuse a partial
	 * override, which would otherwise silently swap that limiter for the defaults.
	 */
	private static void requireReplacement(String prefix, RateLimiterProperties overrides, String chosen) {
		if (overrides.getType() == null && overrides.getBean() == null) {
			throw new InvalidPropertyException(prefix + ".rate-limiter", "a partial override",
					"the controller uses " + chosen + ", which properties can replace but not tune",
					"Set " + prefix + ".rate-limiter.type to replace it with a configured limiter, or " + prefix
							+ ".rate-limiter.bean to use another bean, or remove the " + prefix
							+ ".rate-limiter properties.");
		}
	}

	private static String labelSelector(String property, String selector) {
		try {
			LabelSelectorMatcher.parse(selector);
			return selector;
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(property, selector, ex.getMessage(),
					"Write the selector as 'kubectl -l' takes it, for example 'app=web,tier in (a,b),!legacy'.");
		}
	}

	private static Iterable<String> namespaces(String property, Collection<String> namespaces) {
		for (String namespace : namespaces) {
			KubernetesNames.requireLabel(property, namespace, "Use the name of a namespace, such as 'team-a', or "
					+ "leave " + property + " empty to watch all namespaces.");
		}
		return namespaces;
	}

	private static int requireWorkers(String property, int workers) {
		if (workers < 1) {
			throw new InvalidPropertyException(property, workers, "a controller needs at least one worker",
					"Set " + property + " to 1 or more.");
		}
		return workers;
	}

}
