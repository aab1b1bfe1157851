package dev.kubereconciler.autoconfigure;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import dev.kubereconciler.autoconfigure.manifests.DeploymentProperties;
import dev.kubereconciler.autoconfigure.manifests.RbacProperties;

/**
 * Fails startup on a {@code kube-reconciler.*} key that binds to nothing, naming the key
 * and the nearest valid key, so that a misspelled key is not silently ignored.
 */
final class UnknownPropertyCheck implements BeanFactoryPostProcessor {

	/**
	 * Every properties class under kube-reconciler, by prefix. They are listed here, not
	 * taken from the context, so that the keys of a turned-off part (events with
	 * kube-reconciler.events.enabled=false) still count as valid.
	 */
	static final Map<String, Class<?>> TREES = trees();

	private static final PropertyKeys KEYS = new PropertyKeys(TREES);

	private final Environment environment;

	UnknownPropertyCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		check(this.environment);
	}

	/**
	 * Fail on every {@code kube-reconciler.*} key of the environment that no property
	 * binds.
	 * @param environment the environment
	 * @throws InvalidPropertyException naming the keys and the nearest valid keys
	 */
	static void check(Environment environment) {
		Binder binder = Binder.get(environment);
		Set<ConfigurationProperty> unknown = new TreeSet<>(Comparator.comparing((p) -> p.getName().toString()));
		TREES.forEach((prefix, type) -> {
			ConfigurationPropertyName root = ConfigurationPropertyName.of(prefix);
			for (ConfigurationProperty property : unbound(binder, root, type)) {
				if (!ownedByAnotherTree(root, property.getName())) {
					unknown.add(property);
				}
			}
		});
		if (!unknown.isEmpty()) {
			throw failure(List.copyOf(unknown));
		}
	}

	private static Set<ConfigurationProperty> unbound(Binder binder, ConfigurationPropertyName root, Class<?> type) {
		BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT, UnknownPropertyCheck::isChecked);
		try {
			bind(binder, root, type, handler);
			return Set.of();
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
				return unbound.getUnboundProperties();
			}
			throw ex;
		}
	}

	private static <T> void bind(Binder binder, ConfigurationPropertyName root, Class<T> type, BindHandler handler) {
		binder.bind(root, Bindable.of(type).withExistingValue(BeanUtils.instantiateClass(type)), handler);
	}

	// environment variables are left out: a Service named kube-reconciler gives every
	// pod KUBE_RECONCILER_SERVICE_HOST, KUBE_RECONCILER_PORT and more, which nobody wrote
	private static boolean isChecked(ConfigurationPropertySource source) {
		return !(source.getUnderlyingSource() instanceof org.springframework.core.env.PropertySource<?> underlying
				&& underlying.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME));
	}

	private static boolean ownedByAnotherTree(ConfigurationPropertyName root, ConfigurationPropertyName name) {
		for (String prefix : TREES.keySet()) {
			ConfigurationPropertyName other = ConfigurationPropertyName.of(prefix);
			if (root.isAncestorOf(other) && (other.equals(name) || other.isAncestorOf(name))) {
				return true;
			}
		}
		return false;
	}

	private static InvalidPropertyException failure(List<ConfigurationProperty> unknown) {
		ConfigurationProperty first = unknown.get(0);
		String nearest = KEYS.nearest(first.getName());
		StringBuilder reason = new StringBuilder("no property has this name, so it would be ignored; the nearest is '")
			.append(nearest)
			.append("'");
		if (first.getOrigin() != null) {
			reason.append(" (set by ").append(first.getOrigin()).append(')');
		}
		for (ConfigurationProperty other : unknown.subList(1, unknown.size())) {
			reason.append(". '")
				.append(other.getName())
				.append("' is unknown too; the nearest is '")
				.append(KEYS.nearest(other.getName()))
				.append("'");
		}
		return new InvalidPropertyException(first.getName().toString(), first.getValue(), reason.toString(),
				"Rename " + first.getName() + " to " + nearest + ", or remove it"
						+ ((unknown.size() > 1) ? "; likewise each key the reason names." : "."));
	}

	private static Map<String, Class<?>> trees() {
		Map<String, Class<?>> trees = new LinkedHashMap<>();
		trees.put("kube-reconciler", KubeReconcilerProperties.class);
		trees.put("kube-reconciler.events", EventsProperties.class);
		trees.put("kube-reconciler.rbac", RbacProperties.class);
		trees.put("kube-reconciler.deployment", DeploymentProperties.class);
		trees.put("kube-reconciler.webhooks", WebhookProperties.class);
		return trees;
	}

}
