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
import dev.kubereconciler.reconcile.KubernetesResource;

/**
 * The CRDs of the custom resources that an application's controllers watch, own or map,
 * as files of the generated manifests ({@code crds/<plural>.<group>.yaml}).
 */
final class CustomResourceManifests {

	static final String FOLDER = "crds/";

	private static final String SCHEMA_GENERATOR = "com.github.victools.jsonschema.generator.SchemaGenerator";

	private CustomResourceManifests() {
	}

	/**
	 * Return the custom resource model classes of the controllers: the types they watch,
	 * own or map that carry {@link KubernetesResource}, each once, in the order met.
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
		return models.stream().filter((model) -> model.isAnnotationPresent(KubernetesResource.class)).toList();
	}

	/**
	 * Generate the CRD of each model class.
	 * @param models the model classes
	 * @return the YAML of each CRD by its file, under {@link #FOLDER}
	 * @throws IllegalStateException if the CRD generator's dependencies are missing
	 */
	static Map<String, String> crds(List<Class<?>> models) {
		Map<String, String> files = new LinkedHashMap<>();
		if (models.isEmpty()) {
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
		CrdGenerator generator = new CrdGenerator();
		Map<String, Class<?>> owners = new LinkedHashMap<>();
		for (Class<?> model : models) {
			String file = FOLDER + CrdGenerator.fileName(model);
			Class<?> other = owners.putIfAbsent(file, model);
			if (other != null) {
				throw new IllegalArgumentException(model.getName() + " and " + other.getName()
						+ " both declare the CRD " + file + ": give each a plural or group of its own");
			}
			files.put(file, generator.yaml(model));
		}
		return files;
	}

}
