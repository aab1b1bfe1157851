package dev.kubereconciler.internal.dependent;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.time.Ticker;

/**
 * Since when each dependent of each primary has not been ready: the listener hears how
 * long a dependent took once it is ready, and a warning Event says once that a dependent
 * is not ready past its timeout.
 */
final class ReadinessClock {

	private final String controller;

	private final Ticker ticker;

	private final ControllerListener listener;

	// primary key and dependent name -> when a reconcile first found it not ready
	private final Map<String, Long> notReadySince = new ConcurrentHashMap<>();

	// the same keys, once a warning Event said the dependent timed out
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	ReadinessClock(String controller, Ticker ticker, ControllerListener listener) {
		this.controller = controller;
		this.ticker = ticker;
		this.listener = listener;
	}

	/**
	 * Return the time of a reconcile, which all its dependents are judged by.
	 * @return the ticker's reading
	 */
	long now() {
		return this.ticker.read();
	}

	/**
	 * Forget a dependent that is not wanted.
	 */
	void unwanted(String primaryKey, String dependent) {
		String since = primaryKey + "|" + dependent;
		this.notReadySince.remove(since);
		this.warned.remove(since);
	}

	/**
	 * A dependent is ready: the listener hears how long it was not, if it was.
	 */
	void ready(String primaryKey, String dependent, long now) {
		String since = primaryKey + "|" + dependent;
		this.warned.remove(since);
		Long first = this.notReadySince.remove(since);
		if (first != null) {
			this.listener.dependentReady(this.controller, dependent, Duration.ofNanos(now - first));
		}
	}

	/**
	 * A dependent is not ready: once past its timeout, a warning Event on the primary
	 * says so, once.
	 * @return whether it is not ready past its timeout
	 */
	<P extends KubernetesObject> boolean notReady(String primaryKey, P primary, Dependent<P, ?> dependent,
			String reason, long now, ReconcileContext<P> context) {
		String since = primaryKey + "|" + dependent.name();
		long first = this.notReadySince.computeIfAbsent(since, (key) -> now);
		Duration timeout = dependent.readyTimeout();
		boolean timedOut = !timeout.isZero() && now - first >= timeout.toNanos();
		if (timedOut && this.warned.add(since)) {
			context.events()
				.warning(primary, "DependentNotReady", "Reconcile",
						dependent.name() + ": " + reason + ", not ready after " + timeout + "; still waiting");
		}
		return timedOut;
	}

	/**
	 * Forget what was remembered of a primary object that is gone.
	 * @param primaryKey its {@code namespace/name} key
	 */
	void forget(String primaryKey) {
		String prefix = primaryKey + "|";
		this.notReadySince.keySet().removeIf((key) -> key.startsWith(prefix));
		this.warned.removeIf((key) -> key.startsWith(prefix));
	}

}
