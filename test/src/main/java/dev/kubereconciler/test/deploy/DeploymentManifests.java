package dev.kubereconciler.test.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Deployment;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Finds the Deployment in a manifests folder, through its kustomization's resources when
 * it has one, or in a single file.
 */
final class DeploymentManifests {

	private DeploymentManifests() {
	}

	static V1Deployment read(Path location, @org.jspecify.annotations.Nullable String name) {
		List<Path> files = files(location);
		List<V1Deployment> found = new ArrayList<>();
		for (Path file : files) {
			for (Map<?, ?> document : documents(file)) {
				if ("Deployment".equals(document.get("kind"))) {
					found.add(deployment(file, document));
				}
			}
		}
		List<V1Deployment> named = (name != null)
				? found.stream().filter((deployment) -> name.equals(deployment.getMetadata().getName())).toList()
				: found;
		if (named.size() != 1) {
			throw new IllegalArgumentException(((named.isEmpty()) ? "No Deployment" : named.size() + " Deployments")
					+ ((name != null) ? " named '" + name + "'" : "") + " in " + files + ((named.isEmpty()) ? ""
							: "; name the one to run with DeployedApplication.Builder.deploymentName"));
		}
		return named.get(0);
	}

	private static List<Path> files(Path location) {
		if (!Files.exists(location)) {
			throw new IllegalArgumentException("The manifests " + location.toAbsolutePath()
					+ " do not exist; build the project first (the manifests goal writes target/kubernetes)");
		}
		if (!Files.isDirectory(location)) {
			return List.of(location);
		}
		Path kustomization = location.resolve("kustomization.yaml");
		if (Files.isRegularFile(kustomization)) {
			List<Path> resources = new ArrayList<>();
			for (Map<?, ?> document : documents(kustomization)) {
				if (document.get("resources") instanceof List<?> list) {
					list.forEach((resource) -> resources.add(location.resolve(String.valueOf(resource))));
				}
			}
			return resources.stream().filter(Files::isRegularFile).toList();
		}
		try (Stream<Path> children = Files.list(location)) {
			return children.filter((child) -> child.toString().endsWith(".yaml") || child.toString().endsWith(".yml"))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Map<?, ?>> documents(Path file) {
		try (Reader reader = Files.newBufferedReader(file)) {
			List<Map<?, ?>> documents = new ArrayList<>();
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
				if (document instanceof Map<?, ?> map) {
					documents.add(map);
				}
			}
			return documents;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static V1Deployment deployment(Path file, Map<?, ?> document) {
		try {
			return new JSON().getGson().fromJson(new JSON().getGson().toJson(document), V1Deployment.class);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("The Deployment in " + file + " cannot be read: " + ex.getMessage(), ex);
		}
	}

}
