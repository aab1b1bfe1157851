package dev.kubereconciler.autoconfigure.keys;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The property sources the unknown-property check judges: the environment's own, with
 * only the environment variables that someone wrote for kube-reconciler.
 *
 * <p>
 * {@code KUBERECONCILER_*} variables are judged, as Spring binds them. Kubernetes gives
 * every pod {@code <SERVICE>_SERVICE_HOST}, {@code <SERVICE>_SERVICE_PORT[_<port>]} and
 * {@code <SERVICE>_PORT[_...]} for each Service of its namespace, with the Service's name
 * upper-cased and its dashes as underscores: a Service named {@code kube-reconciler} (or
 * {@code kubereconciler-webhook}) would give variables that map to
 * {@code kube-reconciler.*} keys nobody wrote, so variables of those shapes are left out.
 * So are {@code KUBE_RECONCILER_*} variables, which Services named
 * {@code kube-reconciler-*} and build scripts set, except one that would bind when
 * written {@code KUBERECONCILER_*}: that one is the wrong spelling of a real key, and is
 * refused.
 */
final class CheckedEnvironment {

	/** The prefix Spring reads {@code kube-reconciler.*} keys from. */
	static final String PREFIX = "KUBERECONCILER_";

	/** The prefix of Services named kube-reconciler-*, and of old generated manifests. */
	static final String SERVICE_PREFIX = "KUBE_RECONCILER_";

	private static final Pattern SERVICE_VARIABLE = Pattern
		.compile(".*_(SERVICE_HOST|SERVICE_PORT(_.+)?|PORT(_\\d+_(TCP|UDP|SCTP)(_(PROTO|PORT|ADDR))?)?)");

	private final List<ConfigurationPropertySource> sources;

	private final Map<String, String> respelled = new LinkedHashMap<>();

	private @Nullable PropertySource<?> checked;

	CheckedEnvironment(Environment environment) {
		MutablePropertySources copy = new MutablePropertySources();
		if (environment instanceof ConfigurableEnvironment configurable) {
			for (PropertySource<?> source : configurable.getPropertySources()) {
				copy.addLast((source instanceof SystemEnvironmentPropertySource variables
						&& source.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME))
								? checked(variables) : source);
			}
		}
		List<ConfigurationPropertySource> sources = new ArrayList<>();
		ConfigurationPropertySources.from(copy).forEach(sources::add);
		this.sources = List.copyOf(sources);
	}

	/**
	 * Return the sources to bind, highest priority first.
	 * @return the sources
	 */
	List<ConfigurationPropertySource> sources() {
		return this.sources;
	}

	/**
	 * Return the {@code KUBE_RECONCILER_*} variables judged as if written
	 * {@code KUBERECONCILER_*}.
	 * @return the variables, by the name they were judged under
	 */
	Map<String, String> respelled() {
		return this.respelled;
	}

	/**
	 * Return the value of a variable as judged.
	 * @param name the name it was judged under
	 * @return the value, or {@code null} if no variable was judged under that name
	 */
	@Nullable Object value(String name) {
		return (this.checked != null) ? this.checked.getProperty(name) : null;
	}

	private PropertySource<?> checked(SystemEnvironmentPropertySource variables) {
		Map<String, Object> checked = new LinkedHashMap<>();
		Set<String> names = Set.of(variables.getPropertyNames());
		for (String name : names) {
			if (SERVICE_VARIABLE.matcher(name).matches()) {
				continue;
			}
			if (name.startsWith(PREFIX)) {
				checked.put(name, variables.getProperty(name));
			}
			else if (name.startsWith(SERVICE_PREFIX)) {
				String respelled = PREFIX + name.substring(SERVICE_PREFIX.length());
				if (!names.contains(respelled)) {
					checked.put(respelled, variables.getProperty(name));
					this.respelled.put(respelled, name);
				}
			}
		}
		this.checked = new SystemEnvironmentPropertySource(variables.getName(), checked);
		return this.checked;
	}

}
