package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * The dependents of one controller, checked and ordered: names are unique,
 * {@code dependsOn} names dependents that exist, and the order is a DAG, JOSDK's
 * workflow. A cycle is refused, naming it.
 *
 * @param <P> the primary type
 */
public final class Dependents<P extends KubernetesObject> {

	private static final Dependents<?> NONE = new Dependents<>(List.of(), false);

	private final Map<String, Dependent<P, ?>> byName;

	private final List<Dependent<P, ?>> order;

	private final boolean readyCondition;

	private Dependents(List<Dependent<P, ?>> dependents, boolean readyCondition) {
		Map<String, Dependent<P, ?>> byName = new LinkedHashMap<>();
		for (Dependent<P, ?> dependent : dependents) {
			Objects.requireNonNull(dependent, "dependent must not be null");
			if (byName.put(dependent.name(), dependent) != null) {
				throw new IllegalArgumentException("Two dependents are named '" + dependent.name()
						+ "'; each dependent of a controller needs a name of its own");
			}
		}
		for (Dependent<P, ?> dependent : dependents) {
			for (String dependency : dependent.dependsOn()) {
				if (!byName.containsKey(dependency)) {
					throw new IllegalArgumentException("Dependent '" + dependent.name() + "' depends on '" + dependency
							+ "', which is not a dependent of this controller; its dependents are " + byName.keySet());
				}
			}
		}
		this.byName = byName;
		this.order = order(byName);
		this.readyCondition = readyCondition;
	}

	/**
	 * Return no dependents.
	 * @param <P> the primary type
	 * @return the empty set
	 */
	@SuppressWarnings("unchecked")
	public static <P extends KubernetesObject> Dependents<P> none() {
		return (Dependents<P>) NONE;
	}

	/**
	 * Check and order dependents.
	 * @param <P> the primary type
	 * @param dependents the dependents
	 * @return the ordered set
	 * @throws IllegalArgumentException if two share a name, one depends on an unknown
	 * name, or {@code dependsOn} has a cycle, which the message names
	 */
	public static <P extends KubernetesObject> Dependents<P> of(List<? extends Dependent<P, ?>> dependents) {
		return new Dependents<>(new ArrayList<>(dependents), false);
	}

	/**
	 * Return a copy that keeps a {@code Ready} condition in the primary's
	 * {@code status.conditions}, naming the first dependent not ready and why.
	 * @param readyCondition whether to write the condition
	 * @return the copy
	 */
	public Dependents<P> withReadyCondition(boolean readyCondition) {
		return new Dependents<>(new ArrayList<>(this.byName.values()), readyCondition);
	}

	/**
	 * Return a copy with one dependent turned on or off, or given another ready timeout.
	 * @param name the dependent's name
	 * @param enabled whether it is on, or {@code null} to leave it
	 * @param readyTimeout its ready timeout, or {@code null} to leave it
	 * @return the copy
	 * @throws IllegalArgumentException if no dependent has that name
	 */
	public Dependents<P> override(String name, @Nullable Boolean enabled, @Nullable Duration readyTimeout) {
		Dependent<P, ?> dependent = this.byName.get(name);
		if (dependent == null) {
			throw new IllegalArgumentException(
					"No dependent is named '" + name + "'; the dependents are " + this.byName.keySet());
		}
		Dependent<P, ?> changed = dependent;
		if (enabled != null) {
			changed = changed.withEnabled(enabled);
		}
		if (readyTimeout != null) {
			changed = changed.withReadyTimeout(readyTimeout);
		}
		List<Dependent<P, ?>> all = new ArrayList<>(this.byName.values());
		all.set(all.indexOf(dependent), changed);
		return new Dependents<>(all, this.readyCondition);
	}

	/**
	 * Return every dependent, enabled or not, in declaration order.
	 * @return the dependents
	 */
	public List<Dependent<P, ?>> all() {
		return List.copyOf(this.byName.values());
	}

	/**
	 * Return the enabled dependents in an order where each comes after those it depends
	 * on, and otherwise in declaration order.
	 * @return the order
	 */
	public List<Dependent<P, ?>> order() {
		return this.order;
	}

	/**
	 * Return the enabled dependents that a dependent waits for: those it names that are
	 * enabled.
	 * @param dependent the dependent
	 * @return their names
	 */
	public Set<String> dependencies(Dependent<P, ?> dependent) {
		Set<String> enabled = new LinkedHashSet<>();
		for (String name : dependent.dependsOn()) {
			if (Objects.requireNonNull(this.byName.get(name)).isEnabled()) {
				enabled.add(name);
			}
		}
		return enabled;
	}

	/**
	 * Return the model classes of all dependents, enabled or not, each once.
	 * @return the types
	 */
	public Set<Class<? extends KubernetesObject>> types() {
		Set<Class<? extends KubernetesObject>> types = new LinkedHashSet<>();
		this.byName.values().forEach((dependent) -> types.add(dependent.type()));
		return types;
	}

	/**
	 * Return whether there are none.
	 * @return whether it is empty
	 */
	public boolean isEmpty() {
		return this.byName.isEmpty();
	}

	/**
	 * Return whether the primary's {@code Ready} condition is written.
	 * @return whether it is
	 */
	public boolean readyCondition() {
		return this.readyCondition;
	}

	// depth-first, in declaration order, so that the order is stable and a cycle is
	// found with its path
	private static <P extends KubernetesObject> List<Dependent<P, ?>> order(Map<String, Dependent<P, ?>> byName) {
		List<Dependent<P, ?>> order = new ArrayList<>();
		Set<String> done = new LinkedHashSet<>();
		for (String name : byName.keySet()) {
			visit(name, byName, done, new ArrayList<>(), order);
		}
		order.removeIf((dependent) -> !dependent.isEnabled());
		return List.copyOf(order);
	}

	private static <P extends KubernetesObject> void visit(String name, Map<String, Dependent<P, ?>> byName,
			Set<String> done, List<String> path, List<Dependent<P, ?>> order) {
		if (done.contains(name)) {
			return;
		}
		int seen = path.indexOf(name);
		if (seen >= 0) {
			List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
			cycle.add(name);
			throw new IllegalArgumentException("The dependents' dependsOn has a cycle: " + String.join(" -> ", cycle)
					+ "; a dependent cannot wait, directly or not, for itself");
		}
		path.add(name);
		Dependent<P, ?> dependent = Objects.requireNonNull(byName.get(name));
		for (String dependency : dependent.dependsOn()) {
			visit(dependency, byName, done, path, order);
		}
		path.remove(path.size() - 1);
		done.add(name);
		order.add(dependent);
	}

}
