package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

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
 * Dependent&lt;Widget, V1ConfigMap&gt; config = Dependent.forPrimary(Widget.class)
 *     .of("config", V1ConfigMap.class, (widget, context) -&gt; new V1ConfigMap()
 *             .metadata(new V1ObjectMeta().name(widget.getMetadata().getName()))
 *             .data(Map.of("size", widget.getSpec().size())))
 *     .build();
 * </pre>
 *
 * @param <P> the primary type
 * @param <R> the dependent type
 */
public final class Dependent<P extends KubernetesObject, R extends KubernetesObject> {

	/** Default time a dependent may stay not ready before its primary says so. */
	public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofMinutes(10);

	private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	private final String name;

	private final Class<R> type;

	private final DesiredObjects<P, R> desired;

	private final boolean bulk;

	private final Set<String> dependsOn;

	private final @Nullable Precondition<P> precondition;

	private final WhenUnwanted whenUnwanted;

	private final @Nullable Readiness<R> readiness;

	private final Duration readyTimeout;

	private final boolean enabled;

	private Dependent(Builder<P, R> builder, boolean enabled, Duration readyTimeout) {
		this.name = builder.name;
		this.type = builder.type;
		this.desired = builder.desired;
		this.bulk = builder.bulk;
		this.dependsOn = Collections.unmodifiableSet(new LinkedHashSet<>(builder.dependsOn));
		this.precondition = builder.precondition;
		this.whenUnwanted = builder.whenUnwanted;
		this.readiness = builder.readiness;
		this.readyTimeout = readyTimeout;
		this.enabled = enabled;
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
	 * Start declaring dependents of a primary type, so that the desired-state lambdas
	 * need no parameter types: {@code Dependent.forPrimary(Widget.class).of("config",
	 * V1ConfigMap.class, (widget, context) -> ...)}.
	 * @param <P> the primary type
	 * @param primary the primary's model class
	 * @return the factory
	 */
	public static <P extends KubernetesObject> Factory<P> forPrimary(Class<P> primary) {
		Objects.requireNonNull(primary, "primary must not be null");
		return new Factory<>();
	}

	/**
	 * Declare a dependent of exactly one object. Java infers the primary type from a
	 * method reference or typed lambda parameters; with untyped ones, start from
	 * {@link #forPrimary(Class)}.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label such as
	 * {@code config}, written on every object it applies
	 * @param type the dependent's model class
	 * @param desired the desired object
	 * @return a builder for the rest of the declaration
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Builder<P, R> of(String name, Class<R> type,
			DesiredObject<P, R> desired) {
		Objects.requireNonNull(desired, "desired must not be null");
		return new Builder<>(name, type, (primary, context) -> List
			.of(Objects.requireNonNull(desired.desired(primary, context),
					() -> "Dependent '" + name + "' returned no desired object; use Dependent.bulk for zero or more")),
				false);
	}

	/**
	 * Declare a bulk dependent: a varying number of objects of one kind.
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 * @param name the dependent's name, unique in its controller: a DNS label
	 * @param type the dependent's model class
	 * @param desired the desired objects
	 * @return a builder for the rest of the declaration
	 */
	public static <P extends KubernetesObject, R extends KubernetesObject> Builder<P, R> bulk(String name,
			Class<R> type, DesiredObjects<P, R> desired) {
		return new Builder<>(name, type, Objects.requireNonNull(desired, "desired must not be null"), true);
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
		return new Dependent<>(this, this.enabled, checkTimeout(this.name, readyTimeout));
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

	private static Duration checkTimeout(String name, Duration timeout) {
		Objects.requireNonNull(timeout, "readyTimeout must not be null");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException(
					"Dependent '" + name + "' readyTimeout must not be negative, was " + timeout);
		}
		return timeout;
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

	/**
	 * Declares dependents of one primary type.
	 *
	 * @param <P> the primary type
	 */
	public static final class Factory<P extends KubernetesObject> {

		private Factory() {
		}

		/**
		 * Declare a dependent of exactly one object.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in its controller
		 * @param type the dependent's model class
		 * @param desired the desired object
		 * @return a builder for the rest of the declaration
		 * @see Dependent#of(String, Class, DesiredObject)
		 */
		public <R extends KubernetesObject> Builder<P, R> of(String name, Class<R> type, DesiredObject<P, R> desired) {
			return Dependent.of(name, type, desired);
		}

		/**
		 * Declare a bulk dependent: a varying number of objects of one kind.
		 * @param <R> the dependent type
		 * @param name the dependent's name, a DNS label unique in its controller
		 * @param type the dependent's model class
		 * @param desired the desired objects
		 * @return a builder for the rest of the declaration
		 * @see Dependent#bulk(String, Class, DesiredObjects)
		 */
		public <R extends KubernetesObject> Builder<P, R> bulk(String name, Class<R> type,
				DesiredObjects<P, R> desired) {
			return Dependent.bulk(name, type, desired);
		}

	}

	/**
	 * Builder for {@link Dependent}; every setter is optional.
	 *
	 * @param <P> the primary type
	 * @param <R> the dependent type
	 */
	public static final class Builder<P extends KubernetesObject, R extends KubernetesObject> {

		private final String name;

		private final Class<R> type;

		private final DesiredObjects<P, R> desired;

		private final boolean bulk;

		private final Set<String> dependsOn = new LinkedHashSet<>();

		private @Nullable Precondition<P> precondition;

		private WhenUnwanted whenUnwanted = WhenUnwanted.DELETE;

		private @Nullable Readiness<R> readiness;

		private Duration readyTimeout = DEFAULT_READY_TIMEOUT;

		private Builder(String name, Class<R> type, DesiredObjects<P, R> desired, boolean bulk) {
			if (name == null || !NAME.matcher(name).matches()) {
				throw new IllegalArgumentException("Dependent name '" + name + "' must be a DNS label: at most 63 "
						+ "lower-case letters, digits and '-', starting and ending with a letter or digit, such as "
						+ "'config', because it is written as a label value on the objects it applies");
			}
			this.name = name;
			this.type = Objects.requireNonNull(type, "type must not be null");
			this.desired = desired;
			this.bulk = bulk;
		}

		/**
		 * Wait until these dependents are ready before applying this one. None by
		 * default.
		 * @param names the names of other dependents of the same controller
		 * @return this builder
		 */
		public Builder<P, R> dependsOn(String... names) {
			for (String dependency : names) {
				this.dependsOn.add(Objects.requireNonNull(dependency, "dependency name must not be null"));
			}
			return this;
		}

		/**
		 * Apply the dependent only while a precondition holds; while it does not, delete
		 * its objects. Always applied by default.
		 * @param precondition the precondition
		 * @return this builder
		 */
		public Builder<P, R> reconcileWhen(Precondition<P> precondition) {
			return reconcileWhen(precondition, WhenUnwanted.DELETE);
		}

		/**
		 * Apply the dependent only while a precondition holds, and say what happens to
		 * its objects while it does not. Dependents that depend on this one are unwanted
		 * too while it is.
		 * @param precondition the precondition
		 * @param whenUnwanted delete or skip
		 * @return this builder
		 */
		public Builder<P, R> reconcileWhen(Precondition<P> precondition, WhenUnwanted whenUnwanted) {
			this.precondition = Objects.requireNonNull(precondition, "precondition must not be null");
			this.whenUnwanted = Objects.requireNonNull(whenUnwanted, "whenUnwanted must not be null");
			return this;
		}

		/**
		 * Check readiness after each apply; the dependents that depend on this one wait
		 * until it is ready, and the primary is requeued meanwhile. Without one, an
		 * applied object is ready at once.
		 * @param readiness the readiness, such as {@link Readiness#deploymentAvailable()}
		 * @return this builder
		 */
		public Builder<P, R> readyWhen(Readiness<R> readiness) {
			this.readiness = Objects.requireNonNull(readiness, "readiness must not be null");
			return this;
		}

		/**
		 * Set how long the dependent may stay not ready before the primary's
		 * {@code Ready} condition says it timed out and a warning Event is recorded; it
		 * is still waited for. Default: 10 minutes; zero for no limit.
		 * @param readyTimeout the timeout
		 * @return this builder
		 */
		public Builder<P, R> readyTimeout(Duration readyTimeout) {
			this.readyTimeout = checkTimeout(this.name, readyTimeout);
			return this;
		}

		/**
		 * End the declaration.
		 * @return the dependent
		 */
		public Dependent<P, R> build() {
			return new Dependent<>(this, true, this.readyTimeout);
		}

	}

}
