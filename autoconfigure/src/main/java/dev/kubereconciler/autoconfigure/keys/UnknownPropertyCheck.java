package dev.kubereconciler.autoconfigure.keys;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.SystemEnvironmentOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.events.EventsProperties;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.autoconfigure.manifests.DeploymentProperties;
import dev.kubereconciler.autoconfigure.manifests.RbacProperties;

/**
 * Fails startup on a {@code kube-reconciler.*} key that binds to nothing, naming the key
 * (or the {@code KUBERECONCILER_*} environment variable) and the nearest valid key, so
 * that a misspelled key is not silently ignored. {@link CheckedEnvironment} says which
 * environment variables are judged.
 */
final class UnknownPropertyCheck implements BeanFactoryPostProcessor {

	/**
	 * Every properties class under kube-reconciler, by prefix. They are listed here, not
	 * taken from the context, so that the keys of a turned-off part (events with
	 * kube-reconciler.events.enabled=false) still count as valid.
	 */
	static final Map<String, Class<?>> TREES = trees();

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
		CheckedEnvironment checked = new CheckedEnvironment(environment);
		Binder binder = new Binder(checked.sources(), new PropertySourcesPlaceholdersResolver(environment));
		Set<ConfigurationProperty> unknown = new TreeSet<>(Comparator.comparing((p) -> p.getName().toString()));
		TREES.forEach((prefix, type) -> {
			ConfigurationPropertyName root = ConfigurationPropertyName.of(prefix);
			for (ConfigurationProperty property : unbound(binder, root, type)) {
				if (!ownedByAnotherTree(root, property.getName()) && !inOverriddenList(property, checked.sources())) {
					unknown.add(property);
				}
			}
		});
		// a KUBE_RECONCILER_ variable that binds once respelled is the wrong spelling of
		// a real key; one that binds to nothing either way is someone else's
		Map<String, String> respelled = new LinkedHashMap<>(checked.respelled());
		unknown.removeIf((property) -> respelled.remove(variable(property)) != null);
		if (!respelled.isEmpty()) {
			Map.Entry<String, String> first = respelled.entrySet().iterator().next();
			throw misspelledVariable(first.getValue(), first.getKey(), checked.value(first.getKey()));
		}
		if (!unknown.isEmpty()) {
			throw failure(List.copyOf(unknown));
		}
	}

	/**
	 * Whether Spring binds, from a source of higher priority, a list that holds the key:
	 * it binds a list whole from the first source that has it, so that the leftover
	 * elements of a longer list in application.yaml are not a typo when a profile
	 * overrides it.
	 */
	private static boolean inOverriddenList(ConfigurationProperty property, List<ConfigurationPropertySource> sources) {
		ConfigurationPropertyName name = property.getName();
		ConfigurationPropertySource own = property.getSource();
		if (own == null) {
			// every unbound property was read from a source; one from none is in no list
			return false;
		}
		for (int i = 1; i < name.getNumberOfElements(); i++) {
			if (!name.isNumericIndex(i)) {
				continue;
			}
			ConfigurationPropertyName list = name.chop(i);
			for (ConfigurationPropertySource source : sources) {
				if (source.getUnderlyingSource() == own.getUnderlyingSource()) {
					break;
				}
				if (source.getConfigurationProperty(list) != null
						|| source.containsDescendantOf(list) == ConfigurationPropertyState.PRESENT) {
					return true;
				}
			}
		}
		return false;
	}

	// the variable a property was read from, if an environment variable
	private static @Nullable String variable(ConfigurationProperty property) {
		if (property.getOrigin() instanceof SystemEnvironmentOrigin origin) {
			return origin.getProperty();
		}
		if (property.getOrigin() instanceof PropertySourceOrigin origin && origin.getPropertySource()
			.getName()
			.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
			return origin.getPropertyName();
		}
		return null;
	}

	private static InvalidPropertyException misspelledVariable(String written, String read, @Nullable Object value) {
		return new InvalidPropertyException(written, value,
				"Spring Boot binds no property from this environment variable: it reads kube-reconciler.* keys "
						+ "from variables named " + CheckedEnvironment.PREFIX + "*, dashes removed, so the key "
						+ "this variable means is read from " + read,
				"Rename the environment variable " + written + " to " + read
						+ " (regenerate the manifests if they wrote it).");
	}

	private static Set<ConfigurationProperty> unbound(Binder binder, ConfigurationPropertyName root, Class<?> type) {
		BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
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
		// only here: a walk of every properties class for its keys takes a tenth of a
		// second that a start with valid keys need not pay
		PropertyKeys keys = new PropertyKeys(TREES);
		ConfigurationProperty first = unknown.get(0);
		String nearest = keys.nearest(first.getName());
		StringBuilder reason = new StringBuilder("no property has this name, so it would be ignored; the nearest is '")
			.append(nearest)
			.append("'");
		if (first.getOrigin() != null) {
			reason.append(" (set by ").append(first.getOrigin()).append(')');
		}
		for (ConfigurationProperty other : unknown.subList(1, unknown.size())) {
			reason.append(". '")
				.append(written(other))
				.append("' is unknown too; the nearest is '")
				.append(written(other, keys.nearest(other.getName())))
				.append("'");
		}
		return new InvalidPropertyException(written(first), first.getValue(), reason.toString(),
				"Rename " + written(first) + " to " + written(first, nearest) + ", or remove it"
						+ ((unknown.size() > 1) ? "; likewise each key the reason names." : "."));
	}

	// as the user wrote it: the environment variable, or the key
	private static String written(ConfigurationProperty property) {
		String variable = variable(property);
		return (variable != null) ? variable : property.getName().toString();
	}

	private static String written(ConfigurationProperty property, String key) {
		return (variable(property) != null) ? variableName(key) : key;
	}

	/**
	 * The environment variable Spring binds a key from: dots and indexes become
	 * underscores, dashes go.
	 */
	static String variableName(String key) {
		return key.replace("-", "").replaceAll("[.\\[]", "_").replace("]", "").toUpperCase(Locale.ROOT);
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
