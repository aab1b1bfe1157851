package dev.kubereconciler.dependent;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.dependent.Dependent.WhenUnwanted;

/**
 * The options of a {@link Dependent} beside its desired state, which a customizer sets
 * where the dependent is declared: {@code (options) -> options.dependsOn("config")
 * .readyWhen(ReadyPostcondition.deploymentAvailable())}. Every option is optional.
 *
 * @param <P> the primary type
 * @param <R> the dependent type
 */
public final class DependentOptions<P extends KubernetesObject, R extends KubernetesObject> {

	private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

	final String name;

	final Class<R> type;

	final DesiredObjects<P, R> desired;

	final boolean bulk;

	final Set<String> dependsOn = new LinkedHashSet<>();

	@Nullable Precondition<P> precondition;

	WhenUnwanted whenUnwanted = WhenUnwanted.DELETE;

	@Nullable ReadyPostcondition<R> readiness;

	Duration readyTimeout = Dependent.DEFAULT_READY_TIMEOUT;

	private DependentOptions(String name, Class<R> type, DesiredObjects<P, R> desired, boolean bulk) {
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
	 * Wait until these dependents are ready before applying this one. None by default.
	 * @param names the names of other dependents of the same controller
	 * @return these options
	 */
	public DependentOptions<P, R> dependsOn(String... names) {
		for (String dependency : names) {
			this.dependsOn.add(Objects.requireNonNull(dependency, "dependency name must not be null"));
		}
		return this;
	}

	/**
	 * Apply the dependent only while a precondition holds; while it does not, delete its
	 * objects. Always applied by default.
	 * @param precondition the precondition
	 * @return these options
	 */
	public DependentOptions<P, R> reconcileWhen(Precondition<P> precondition) {
		return reconcileWhen(precondition, WhenUnwanted.DELETE);
	}

	/**
	 * Apply the dependent only while a precondition holds, and say what happens to its
	 * objects while it does not. Dependents that depend on this one are unwanted too
	 * while it is.
	 * @param precondition the precondition
	 * @param whenUnwanted delete or skip
	 * @return these options
	 */
	public DependentOptions<P, R> reconcileWhen(Precondition<P> precondition, WhenUnwanted whenUnwanted) {
		this.precondition = Objects.requireNonNull(precondition, "precondition must not be null");
		this.whenUnwanted = Objects.requireNonNull(whenUnwanted, "whenUnwanted must not be null");
		return this;
	}

	/**
	 * Check readiness after each apply; the dependents that depend on this one wait until
	 * it is ready, and the primary is requeued meanwhile. Without one, an applied object
	 * is ready at once.
	 * @param readiness the readiness, such as
	 * {@link ReadyPostcondition#deploymentAvailable()}
	 * @return these options
	 */
	public DependentOptions<P, R> readyWhen(ReadyPostcondition<R> readiness) {
		this.readiness = Objects.requireNonNull(readiness, "readiness must not be null");
		return this;
	}

	/**
	 * Set how long the dependent may stay not ready before the primary's {@code Ready}
	 * condition says it timed out and a warning Event is recorded; it is still waited
	 * for. Default: 10 minutes; zero for no limit.
	 * @param readyTimeout the timeout
	 * @return these options
	 */
	public DependentOptions<P, R> readyTimeout(Duration readyTimeout) {
		this.readyTimeout = checkTimeout(this.name, readyTimeout);
		return this;
	}

	static <P extends KubernetesObject, R extends KubernetesObject> DependentOptions<P, R> single(String name,
			Class<R> type, DesiredObject<P, R> desired) {
		Objects.requireNonNull(desired, "desired must not be null");
		return new DependentOptions<>(name, type, (primary, context) -> List
			.of(Objects.requireNonNull(desired.desired(primary, context),
					() -> "Dependent '" + name + "' returned no desired object; use Dependent.bulk for zero or more")),
				false);
	}

	static <P extends KubernetesObject, R extends KubernetesObject> DependentOptions<P, R> bulk(String name,
			Class<R> type, DesiredObjects<P, R> desired) {
		return new DependentOptions<>(name, type, Objects.requireNonNull(desired, "desired must not be null"), true);
	}

	Dependent<P, R> customize(Consumer<DependentOptions<P, R>> customizer) {
		Objects.requireNonNull(customizer, "customizer must not be null").accept(this);
		return new Dependent<>(this);
	}

	static Duration checkTimeout(String name, Duration timeout) {
		Objects.requireNonNull(timeout, "readyTimeout must not be null");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException(
					"Dependent '" + name + "' readyTimeout must not be negative, was " + timeout);
		}
		return timeout;
	}

}
