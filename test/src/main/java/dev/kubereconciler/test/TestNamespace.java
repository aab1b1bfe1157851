package dev.kubereconciler.test;

import java.util.Objects;

/**
 * The namespace a {@link KubernetesTest} class gets to itself: created before its first
 * test and deleted after its last.
 *
 * @param name the namespace's name
 */
public record TestNamespace(String name) {

	public TestNamespace {
		Objects.requireNonNull(name, "name must not be null");
	}

	@Override
	public String toString() {
		return this.name;
	}

}
