package dev.kubereconciler.autoconfigure.reconciler;

import java.time.Duration;
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
import dev.kubereconciler.cache.LabelMatcher;
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

	private final DependentSettings dependentSettings;

	public ControllerDefinitionResolver(KubeReconcilerProperties properties,
			Function<String, @Nullable RateLimiter<Request>> limiterBeans, List<RateLimiterCustomizer> customizers,
			Function<String, @Nullable Object> beans, Function<String, @Nullable ResolvableType> beanTypes) {
		this.properties = properties;
		this.limiters = new RateLimiterFactory(limiterBeans);
		this.customizers = customizers;
		this.watchSettings = new WatchSettings(beans);
		this.dependentSettings = new DependentSettings(beans, beanTypes);
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
		for (ReconcilerMethod method : methods) {
			String name = nameOf(method);
			register(origins, name, "@Reconciler method " + method.description());
			deferred.add(() -> add(resolved, name, (overrides) -> DependentSettings
				.apply(Finalizers.apply(fromAnnotation(name, method, overrides), method, overrides), overrides)));
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
		ResourceType watched = resourceType(method, annotation.watches());
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

	private ControllerDefinition fromAnnotation(String name, ReconcilerMethod method, ControllerProperties overrides) {
		Reconciler annotation = method.annotation();
		KubeReconcilerProperties.Defaults defaults = this.properties.getDefaults();
		String prefix = PREFIX + name;
		int workers = defaults.getMaxConcurrentReconciles();
		String workersProperty = "kube-reconciler.defaults.max-concurrent-reconciles";
		if (overrides.getMaxConcurrentReconciles() != null) {
			workers = overrides.getMaxConcurrentReconciles();
			workersProperty = prefix + ".max-concurrent-reconciles";
		}
		else if (annotation.maxConcurrentReconciles() != -1) {
			workers = annotation.maxConcurrentReconciles();
			workersProperty = "@Reconciler(maxConcurrentReconciles) of " + method.description();
		}
		RateLimiter<Request> limiter;
		if (!overrides.getRateLimiter().isEmpty()) {
			if (!annotation.rateLimiter().isEmpty()) {
				requireReplacement(prefix, overrides.getRateLimiter(), "the RateLimiter bean '"
						+ annotation.rateLimiter() + "' of @Reconciler(rateLimiter) on " + method.description());
			}
			limiter = this.limiters.create(prefix + ".rate-limiter",
					overrides.getRateLimiter().inheritFrom(defaults.getRateLimiter()));
		}
		else if (!annotation.rateLimiter().isEmpty()) {
			limiter = this.limiters.bean("@Reconciler(rateLimiter) of " + method.description(),
					annotation.rateLimiter());
		}
		else {
			limiter = this.limiters.create("kube-reconciler.defaults.rate-limiter", defaults.getRateLimiter());
		}
		ControllerDefinitionBuilder<?> builder = ControllerDefinition.builder(annotation.watches())
			.named(name)
			.namespaces(
					(overrides.getNamespaces() != null) ? namespaces(prefix + ".namespaces", overrides.getNamespaces())
							: namespaces("@Reconciler(namespaces) of " + method.description(),
									List.of(annotation.namespaces())))
			.labelSelector(labelSelector(prefix, overrides, annotation.labelSelector()))
			.maxConcurrentReconciles(requireWorkers(workersProperty, workers))
			.rateLimiter(customize(name, limiter))
			.reconcileTimeout(duration(prefix, "reconcile-timeout", overrides.getReconcileTimeout(),
					DEFAULTS + "reconcile-timeout", defaults.getReconcileTimeout()))
			.cacheSyncTimeout(positive(prefix, "cache-sync-timeout", overrides.getCacheSyncTimeout(),
					DEFAULTS + "cache-sync-timeout", defaults.getCacheSyncTimeout()))
			.resyncPeriod(duration(prefix, "resync-period", overrides.getResyncPeriod(), DEFAULTS + "resync-period",
					defaults.getResyncPeriod()));
		for (Class<? extends KubernetesObject> owned : annotation.owns()) {
			builder.owns(owned);
		}
		this.watchSettings.fromAnnotation(builder, prefix, overrides.getEventFilters(), annotation.eventFilters(),
				annotation.eventFilterBeans(), annotation.maps(), method.description());
		return this.dependentSettings.reconcile(builder, name, method);
	}

	private ControllerDefinition fromBean(ControllerDefinition bean, ControllerProperties overrides) {
		String prefix = PREFIX + bean.name();
		String origin = "ControllerDefinition bean '" + bean.name() + "'";
		RateLimiter<Request> limiter = bean.rateLimiter();
		if (!overrides.getRateLimiter().isEmpty()) {
			requireReplacement(prefix, overrides.getRateLimiter(),
					"the limiter of ControllerDefinition bean '" + bean.name() + "'");
			limiter = this.limiters.create(prefix + ".rate-limiter",
					overrides.getRateLimiter().inheritFrom(this.properties.getDefaults().getRateLimiter()));
		}
		int workers = (overrides.getMaxConcurrentReconciles() != null) ? overrides.getMaxConcurrentReconciles()
				: bean.maxConcurrentReconciles();
		ControllerDefinitionBuilder<?> builder = ControllerDefinition.builder(bean.watches())
			.named(bean.name())
			.namespaces(
					(overrides.getNamespaces() != null) ? namespaces(prefix + ".namespaces", overrides.getNamespaces())
							: namespaces("the namespaces of ControllerDefinition bean '" + bean.name() + "'",
									bean.namespaces()))
			.labelSelector(labelSelector(prefix, overrides, bean.labelSelector().toString()))
			.maxConcurrentReconciles(requireWorkers(prefix + ".max-concurrent-reconciles", workers))
			.rateLimiter(customize(bean.name(), limiter))
			.reconcileTimeout(duration(prefix, "reconcile-timeout", overrides.getReconcileTimeout(), origin,
					bean.reconcileTimeout()))
			.cacheSyncTimeout(positive(prefix, "cache-sync-timeout", overrides.getCacheSyncTimeout(), origin,
					bean.cacheSyncTimeout()))
			.resyncPeriod(duration(prefix, "resync-period", overrides.getResyncPeriod(), origin, bean.resyncPeriod()));
		bean.owns().forEach(builder::owns);
		this.watchSettings.fromBean(builder, prefix, overrides.getEventFilters(), bean);
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

	private static String labelSelector(String prefix, ControllerProperties overrides, String fallback) {
		String selector = (overrides.getLabelSelector() != null) ? overrides.getLabelSelector() : fallback;
		try {
			LabelMatcher.parse(selector);
			return selector;
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(prefix + ".label-selector", selector, ex.getMessage(),
					"Write the selector as 'kubectl -l' takes it, for example 'app=web,tier in (a,b),!legacy'.");
		}
	}

	private static <C extends Collection<String>> C namespaces(String property, C namespaces) {
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

	/**
	 * Return the controller's own value, else the inherited one, naming the property it
	 * came from when it cannot work.
	 */
	private static Duration duration(String prefix, String name, Duration override, String fallbackOrigin,
			Duration fallback) {
		String property = origin(prefix, name, override, fallbackOrigin);
		Duration value = (override != null) ? override : fallback;
		return PropertyDurations.requireNotNegative(property, value);
	}

	private static Duration positive(String prefix, String name, Duration override, String fallbackOrigin,
			Duration fallback) {
		String property = origin(prefix, name, override, fallbackOrigin);
		return PropertyDurations.requirePositive(property, (override != null) ? override : fallback);
	}

	private static String origin(String prefix, String name, Duration override, String fallbackOrigin) {
		if (override != null) {
			return prefix + "." + name;
		}
		return fallbackOrigin.startsWith("kube-reconciler.") ? fallbackOrigin : "the " + name + " of " + fallbackOrigin;
	}

}
