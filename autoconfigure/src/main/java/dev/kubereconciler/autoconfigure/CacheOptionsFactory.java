package dev.kubereconciler.autoconfigure;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.KubeReconcilerProperties.ResourceCache;
import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.FieldIndex;

/**
 * Makes the manager's {@link CacheOptions} from a {@code CacheOptions} bean, the
 * {@code kube-reconciler.cache.resources.*} properties and the {@link FieldIndex} beans,
 * refusing a value that cannot work with the property's name and the fix.
 */
final class CacheOptionsFactory {

	static final String RESOURCES = "kube-reconciler.cache.resources";

	private CacheOptionsFactory() {
	}

	static CacheOptions create(CacheOptions base, Map<String, ResourceCache> resources, List<FieldIndex<?>> indexes) {
		CacheOptions options = base;
		for (Map.Entry<String, ResourceCache> entry : resources.entrySet()) {
			options = apply(options, entry.getKey(), entry.getValue());
		}
		for (FieldIndex<?> index : indexes) {
			options = options.index(index);
		}
		return options;
	}

	private static CacheOptions apply(CacheOptions options, String resource, ResourceCache cache) {
		String prefix = RESOURCES + "[" + resource + "].";
		check(() -> CacheOptions.defaults().readThrough(resource), RESOURCES + "[" + resource + "]", resource,
				"Name the type as kubectl does: secrets, deployments.apps, or [backups.example.com], in brackets "
						+ "when the name has dots.");
		String label = text(cache.getLabelSelector());
		String field = text(cache.getFieldSelector());
		if (cache.isReadThrough() && !(label.isBlank() && field.isBlank())) {
			throw new InvalidPropertyException(prefix + "read-through", true,
					"a read-through type has no informer for selectors to limit",
					"Remove " + prefix + "label-selector and " + prefix + "field-selector, or set " + prefix
							+ "read-through to false.");
		}
		check(() -> CacheOptions.defaults().selectors(resource, label, ""), prefix + "label-selector", label,
				"Write the selector as kubectl -l takes it, such as app=web,tier in (a,b),!legacy.");
		check(() -> CacheOptions.defaults().selectors(resource, "", field), prefix + "field-selector", field,
				"Write the selector as kubectl --field-selector takes it, such as type=kubernetes.io/tls or "
						+ "metadata.name!=skipped.");
		try {
			if (cache.isReadThrough()) {
				return options.readThrough(resource);
			}
			return (label.isBlank() && field.isBlank()) ? options : options.selectors(resource, label, field);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(prefix + "read-through", cache.isReadThrough(), ex.getMessage(),
					"The CacheOptions bean declares " + resource + " the other way; declare it in one place.");
		}
	}

	private static void check(Runnable validation, String property, Object value, String action) {
		try {
			validation.run();
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException(property, value, ex.getMessage(), action);
		}
	}

	private static String text(@Nullable String value) {
		return (value != null) ? value : "";
	}

}
