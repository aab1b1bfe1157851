package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.ReconcileContext;

/**
 * An object, or a varying number of objects of one kind, that a primary object owns,
 * declared by its desired state: JOSDK's dependent resource, applied by server-side
 * apply. A controller definition takes its dependents; around each reconcile the
 * controller applies them in {@code dependsOn} order, waits for their readiness, and
 * deletes what it applied before and no longer wants.
 *
 * <pre class="code">
 * Dependent&lt;Widget, V1ConfigMap&gt; config = Dependent.of("config", V1ConfigMap.class,
 *         (widget, context) -&gt; new V1ConfigMap()
 *             .metadata(new V1ObjectMeta().name(widget.getMetadata().getName()))
 *             .data(Map.of("size", widget.getSpec().size())));
 * </pre>
 *
 * A controller's builder takes the same declaration inline, with the primary type its
 * own: {@code ControllerDefinition.builder(Widget.class).dependent("config",
 * V1ConfigMap.class, (widget, context) -> ...)}.
 *
 * @param <P> the primary type
 * @param <R> the dependent type
 */
public final class Dependent<P extends KubernetesObject, R extends KubernetesObject> {

	/** Default time a dependent may stay not ready before its primary says so. */
	public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofMinutes(10);

	private final String name;

	private final Class<R> type;

	private final DesiredObjects<P, R> desired;

	private final boolean bulk;

	private final Set<String> dependsOn;

	private final @Nullable Precondition<P> precondition;

	private final WhenUnwanted whenUnwanted;

	private final @Nullable ReadyPostcondition<R> readiness;

	private final Duration readyTimeout;

	private final boolean enabled;

	Dependent(DependentOptions<P, R> options) {
		this.name = options.name;
		this.type = options.type;
		this.desired = options.desired;
		this.bulk = options.bulk;
		this.dependsOn = Collections.unmodifiableSet(new LinkedHashSet<>(options.dependsOn));
		this.precondition = options.precondition;
		this.whenUnwanted = options.whenUnwanted;
		this.readiness = options.readiness;
		this.readyTimeout = options.readyTimeout;
		this.enabled = true;
	}

	private Dependent(Dependent<P, R> dependent, boolean enabled, Duration readyTimeout) {
		this.name = dependent.name;
		this.type = dependent.type;
		this.desired = dependent.desired;
		this.bulk = dependent.bulk;
		this.dependsOn = dependent.dependsOn;
		this.precondition = dependent.precondition;
		this.whenUnwanted = dependent.whenUnwanted;
		this.readiness = dependent.readiness;
		this.readyTimeout = readyTimeout;
		this.enabled = enabled;
	}

	/**
	 * Declare a dependent of exactly one object. The primary type comes from where the
	 * dependent goes: a variable or a bean method's return type such as
	 * {@code Dependent<Widget, V1ConfigMap>}; a controller's builder takes the same
	 * declaration inline.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label such as
	 * {@code config}, written on every object it applies
	 * @param type the dependent's model class
	 * @param desired the desired object
	 * @return the dependent
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Dependent<P, R> of(String name,
			Class<R> type, DesiredObject<P, R> desired) {
		return of(name, type, desired, (options) -> {
		});
	}

	/**
	 * Declare a dependent of exactly one object, with options such as {@code dependsOn}
	 * and {@code readyWhen}.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label such as
	 * {@code config}, written on every object it applies
	 * @param type the dependent's model class
	 * @param desired the desired object
	 * @param customizer sets the options, such as
	 * {@code (options) -> options.dependsOn("config")}
	 * @return the dependent
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Dependent<P, R> of(String name,
			Class<R> type, DesiredObject<P, R> desired, Consumer<DependentOptions<P, R>> customizer) {
		return DependentOptions.single(name, type, desired).customize(customizer);
	}

	/**
	 * Declare a bulk dependent: a varying number of objects of one kind.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label
	 * @param type the dependent's model class
	 * @param desired the desired objects
	 * @return the dependent
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Dependent<P, R> bulk(String name,
			Class<R> type, DesiredObjects<P, R> desired) {
		return bulk(name, type, desired, (options) -> {
		});
	}

	/**
	 * Declare a bulk dependent: a varying number of objects of one kind, with options
	 * such as {@code dependsOn} and {@code readyWhen}.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label
	 * @param type the dependent's model class
	 * @param desired the desired objects
	 * @param customizer sets the options
	 * @return the dependent
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Dependent<P, R> bulk(String name,
			Class<R> type, DesiredObjects<P, R> desired, Consumer<DependentOptions<P, R>> customizer) {
		return DependentOptions.bulk(name, type, desired).customize(customizer);
	}

	/**
	 * Return the name, unique in the controller.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the model class of the objects.
	 * @return the type
	 */
	public Class<R> type() {
		return this.type;
	}

	/**
	 * Return whether this dependent manages a varying number of objects.
	 * @return whether it is a bulk dependent
	 */
	public boolean isBulk() {
		return this.bulk;
	}

	/**
	 * Return the names of the dependents that must be ready before this one is applied.
	 * @return the names
	 */
	public Set<String> dependsOn() {
		return this.dependsOn;
	}

	/**
	 * Return what happens to this dependent's objects while its precondition is false.
	 * @return delete or skip
	 */
	public WhenUnwanted whenUnwanted() {
		return this.whenUnwanted;
	}

	/**
	 * Return whether the dependent has a readiness check; without one, an applied object
	 * is ready at once.
	 * @return whether it has one
	 */
	public boolean hasReadiness() {
		return this.readiness != null;
	}

	/**
	 * Return how long the dependent may stay not ready before the primary's {@code Ready}
	 * condition says it timed out; zero for no limit.
	 * @return the timeout
	 */
	public Duration readyTimeout() {
		return this.readyTimeout;
	}

	/**
	 * Return whether the dependent is on. One turned off is left out of the order, its
	 * dependents do not wait for it, and the objects it applied are deleted, as if it
	 * were removed from the code.
	 * @return whether it is enabled
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Return a copy turned on or off, as {@code kube-reconciler.controllers.<name>.
	 * dependents.<dependent>.enabled} does.
	 * @param enabled whether it is on
	 * @return the copy
	 */
	public Dependent<P, R> withEnabled(boolean enabled) {
		return new Dependent<>(this, enabled, this.readyTimeout);
	}

	/**
	 * Return a copy with another ready timeout.
	 * @param readyTimeout the timeout, zero for none
	 * @return the copy
	 */
	public Dependent<P, R> withReadyTimeout(Duration readyTimeout) {
		return new Dependent<>(this, this.enabled, DependentOptions.checkTimeout(this.name, readyTimeout));
	}

	/**
	 * Compute the desired objects.
	 * @param primary a private copy of the primary
	 * @param context the reconcile context
	 * @return the desired objects
	 * @throws Exception any failure of the desired-state function
	 */
	public List<R> desired(P primary, ReconcileContext<P> context) throws Exception {
		Collection<? extends R> objects = this.desired.desired(primary, context);
		return (objects != null) ? new ArrayList<>(objects) : List.of();
	}

	/**
	 * Test the precondition.
	 * @param primary a private copy of the primary
	 * @param context the reconcile context
	 * @return whether the dependent is wanted; {@code true} without a precondition
	 * @throws Exception any failure of the precondition
	 */
	public boolean wanted(P primary, ReconcileContext<P> context) throws Exception {
		return this.precondition == null || this.precondition.test(primary, context);
	}

	/**
	 * Check an applied object's readiness.
	 * @param actual the object
	 * @return {@code null} when ready, otherwise why not
	 */
	public @Nullable String notReady(KubernetesObject actual) {
		return (this.readiness != null) ? this.readiness.notReady(this.type.cast(actual)) : null;
	}

	@Override
	public String toString() {
		return "Dependent '" + this.name + "' (" + this.type.getSimpleName() + ")";
	}

	/**
	 * What happens to a dependent's objects while its precondition is false.
	 */
	public enum WhenUnwanted {

		/** Delete the objects it applied, as JOSDK does. The default. */
		DELETE,

		/** Leave them as they are, neither applied nor deleted. */
		SKIP

	}

}
