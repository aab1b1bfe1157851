package dev.kubereconciler.autoconfigure.manifests;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesType;
import io.kubernetes.client.util.Yaml;
import org.yaml.snakeyaml.DumperOptions;

/**
 * The YAML of the generated manifests, without the empty maps and lists that
 * client-java's models start with ({@code labels: {}}, {@code nodeSelector: {}},
 * {@code overhead: {}}).
 *
 * <p>
 * The API server stores none of them, so with them a client-side {@code kubectl apply}
 * finds a difference on every run and reports {@code configured}. For every field these
 * files carry, an empty map or list means what its absence means.
 */
final class ManifestYaml {

	private ManifestYaml() {
	}

	/**
	 * Return the YAML of a client-java object.
	 * @param object the object
	 * @return the YAML
	 */
	static String dump(Object object) {
		return withoutEmpties(Yaml.dump(object));
	}

	/**
	 * Return the YAML of client-java objects, one document each.
	 * @param objects the objects
	 * @return the YAML
	 */
	static String dumpAll(Iterator<? extends KubernetesType> objects) {
		return withoutEmpties(Yaml.dumpAll(objects));
	}

	/**
	 * Return YAML documents without their empty maps and lists, at any depth.
	 * @param yaml the documents
	 * @return the documents without them
	 */
	static String withoutEmpties(String yaml) {
		org.yaml.snakeyaml.Yaml snakeYaml = new org.yaml.snakeyaml.Yaml(blockStyle());
		List<Object> documents = new ArrayList<>();
		for (Object document : snakeYaml.loadAll(yaml)) {
			documents.add(strip(document));
		}
		return (documents.size() == 1) ? snakeYaml.dump(documents.get(0)) : snakeYaml.dumpAll(documents.iterator());
	}

	/**
	 * Return the options the manifests are written with: block style, no line wrapped.
	 * @return the options
	 */
	static DumperOptions blockStyle() {
		DumperOptions options = new DumperOptions();
		options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
		options.setWidth(Integer.MAX_VALUE);
		return options;
	}

	private static Object strip(Object node) {
		if (node instanceof Map<?, ?> map) {
			Map<Object, Object> stripped = new LinkedHashMap<>();
			map.forEach((key, value) -> {
				Object child = strip(value);
				if (!isEmpty(child)) {
					stripped.put(key, child);
				}
			});
			return stripped;
		}
		if (node instanceof List<?> list) {
			return list.stream().map(ManifestYaml::strip).toList();
		}
		return node;
	}

	private static boolean isEmpty(Object node) {
		return (node instanceof Map<?, ?> map && map.isEmpty())
				|| (node instanceof Collection<?> collection && collection.isEmpty());
	}

}
