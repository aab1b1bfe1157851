package dev.kubereconciler.autoconfigure.manifests;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.util.ClassUtils;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.crd.CrdGenerator;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.model.ResourceCoordinates;

/**
 * The CRDs of the custom resources that an application's controllers watch, own or map,
 * as files of the generated manifests ({@code crds/<plural>.<group>.yaml}), one file per
 * CRD with a version for each of its model classes.
 */
final class CustomResourceManifests {

	static final String FOLDER = "crds/";

	private static final String SCHEMA_GENERATOR = "com.github.victools.jsonschema.generator.SchemaGenerator";

	private CustomResourceManifests() {
	}

	/**
	 * Return the custom resource model classes of the controllers: the types they watch,
	 * own or map that carry {@link ResourceCoordinates}, each once, in the order met.
	 * @param definitions the controllers
	 * @return the model classes
	 */
	static List<Class<?>> of(Collection<ControllerDefinition> definitions) {
		Set<Class<?>> models = new LinkedHashSet<>();
		for (ControllerDefinition definition : definitions) {
			models.add(definition.watches());
			models.addAll(definition.owns());
			models.addAll(definition.mappedTypes());
		}
		// a type registered with ModelMapper.addModelMap instead has no annotations to
		// generate its CRD from
		return models.stream().filter((model) -> model.isAnnotationPresent(ResourceCoordinates.class)).toList();
	}

	/**
	 * Generate the CRD of each group and plural, with a version for each of its model
	 * classes and no conversion webhook.
	 * @param models the model classes
	 * @return the YAML of each CRD by its file, under {@link #FOLDER}
	 * @throws IllegalStateException if the CRD generator's dependencies are missing
	 * @throws IllegalArgumentException if the classes of one CRD do not agree, as
	 * {@link CrdGenerator#yaml(Collection, WebhookClientConfig)} says
	 */
	static Map<String, String> crds(List<Class<?>> models) {
		return crds(models, Map.of());
	}

	/**
	 * Generate the CRD of each group and plural, with a version for each of its model
	 * classes (a kind of several versions gives one file) and the conversion webhooks
	 * given.
	 * @param models the model classes
	 * @param conversionWebhooks the conversion webhook of each CRD that has one, by the
	 * CRD's name ({@code <plural>.<group>}), such as the application's own webhook
	 * Service
	 * @return the YAML of each CRD by its file, under {@link #FOLDER}, in the order of
	 * the CRDs' first classes
	 * @throws IllegalStateException if the CRD generator's dependencies are missing
	 * @throws IllegalArgumentException if the classes of one CRD do not agree, as
	 * {@link CrdGenerator#yaml(Collection, WebhookClientConfig)} says, or a webhook is
	 * given for a CRD of none of the classes
	 */
	static Map<String, String> crds(List<Class<?>> models, Map<String, WebhookClientConfig> conversionWebhooks) {
		Map<String, String> files = new LinkedHashMap<>();
		if (models.isEmpty()) {
			if (!conversionWebhooks.isEmpty()) {
				throw new IllegalArgumentException("Conversion webhooks are given for the CRDs "
						+ conversionWebhooks.keySet() + ", but no custom resource declares them");
			}
			return files;
		}
		if (!ClassUtils.isPresent(SCHEMA_GENERATOR, CustomResourceManifests.class.getClassLoader())) {
			throw new IllegalStateException("Cannot write the CRDs of "
					+ models.stream().map(Class::getName).collect(Collectors.joining(", "))
					+ ": the CRD generator needs com.github.victools:jsonschema-generator and "
					+ "com.github.victools:jsonschema-module-jakarta-validation on the class path of the build. Add "
					+ "them to the application's dependencies with <optional>true</optional>, so that the build has "
					+ "them and the repackaged application leaves them out");
		}
		new CrdGenerator().files(models, conversionWebhooks).forEach((file, yaml) -> files.put(FOLDER + file, yaml));
		return files;
	}

}
