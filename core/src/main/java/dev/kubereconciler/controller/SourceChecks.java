package dev.kubereconciler.controller;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.source.PerObjectPollingSource;
import dev.kubereconciler.source.Source;

/**
 * Checks a definition's sources: named once each, and polling objects of the watched
 * type.
 */
final class SourceChecks {

	private SourceChecks() {
	}

	static void check(String controller, Class<? extends KubernetesObject> watches, List<Source> sources) {
		Set<String> names = new HashSet<>();
		for (Source source : sources) {
			Objects.requireNonNull(source, () -> "Controller '" + controller + "' has a null source");
			if (!names.add(source.name())) {
				throw new IllegalArgumentException("Controller '" + controller + "' has two sources named '"
						+ source.name() + "'; give each source a name of its own");
			}
			if (source instanceof PerObjectPollingSource<?> polling && !polling.type().isAssignableFrom(watches)) {
				throw new IllegalArgumentException("Source '" + source.name() + "' of controller '" + controller
						+ "' polls " + polling.type().getSimpleName() + " objects, but the controller watches "
						+ watches.getSimpleName() + "; poll the watched type");
			}
		}
	}

}
