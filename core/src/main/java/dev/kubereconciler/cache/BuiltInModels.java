package dev.kubereconciler.cache;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import org.jspecify.annotations.Nullable;

/**
 * The coordinates of client-java's own model classes, read off the class name as
 * client-java's {@code ModelMapper} reads them, without touching {@code ModelMapper}: its
 * first use loads every class of the model package from every jar, some 4,800 classes
 * with the fluent builders, which was a tenth of a minimal application's start-up.
 */
final class BuiltInModels {

	private static final String PACKAGE = "io.kubernetes.client.openapi.models.";

	// an optional group prefix (CoreV1Event, EventsV1Event), the version, the kind
	private static final Pattern NAME = Pattern.compile("((?:[A-Z][a-z]+)*?)(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)");

	// the prefixes of client-java's class names, which name the group where two groups
	// have a kind of the same name and version
	private static final Map<String, String> PREFIX_GROUPS = Map.ofEntries(Map.entry("Core", ""),
			Map.entry("Events", "events.k8s.io"), Map.entry("Admissionregistration", "admissionregistration.k8s.io"),
			Map.entry("Apiextensions", "apiextensions.k8s.io"), Map.entry("Apiregistration", "apiregistration.k8s.io"),
			Map.entry("Authentication", "authentication.k8s.io"), Map.entry("Discovery", "discovery.k8s.io"),
			Map.entry("Flowcontrol", "flowcontrol.apiserver.k8s.io"), Map.entry("Rbac", "rbac.authorization.k8s.io"),
			Map.entry("Resource", "resource.k8s.io"), Map.entry("Storage", "storage.k8s.io"));

	private BuiltInModels() {
	}

	/**
	 * Return the group, version and kind of one of client-java's model classes.
	 * @param model the class
	 * @return its coordinates, or {@code null} for a class outside client-java's model
	 * package or one whose name does not read as a version and a kind
	 */
	static @Nullable GroupVersionKind of(Class<?> model) {
		String name = model.getName();
		if (!name.startsWith(PACKAGE) || name.indexOf('.', PACKAGE.length()) >= 0 || name.indexOf('$') >= 0) {
			return null;
		}
		Matcher matcher = NAME.matcher(model.getSimpleName());
		if (!matcher.matches()) {
			return null;
		}
		String prefix = matcher.group(1);
		String kind = matcher.group(3);
		String group = prefix.isEmpty() ? BuiltInGroups.of(model, kind) : PREFIX_GROUPS.get(prefix);
		if (group == null) {
			return null;
		}
		return new GroupVersionKind(group, matcher.group(2).toLowerCase(Locale.ROOT), kind);
	}

}
