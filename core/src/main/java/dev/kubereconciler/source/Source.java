package dev.kubereconciler.source;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Callable;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Request;

/**
 * A source of keys that a controller declares beside its watches; the factories here make
 * the built-in kinds. A source instance belongs to one controller, which starts it each
 * time its workers start (after the caches synced, on the leader) and stops it with them.
 */
public interface Source {

	/**
	 * Return the source's name, unique in its controller; it labels the source's count of
	 * keys and its properties
	 * ({@code kube-reconciler.controllers.<name>.sources.<source>}).
	 * @return the name
	 */
	String name();

	/**
	 * Return the source's kind, as the {@code controllers} endpoint shows it, such as
	 * {@code polling}.
	 * @return the kind
	 */
	String kind();

	/**
	 * Return the period of a periodic source.
	 * @return the period, or {@code null} for a source that runs on no period
	 */
	default @Nullable Duration period() {
		return null;
	}

	/**
	 * Start putting keys into the context's queue; the controller calls it when its
	 * workers start, and it must not block.
	 * @param context where the keys go, and the clock and thread to run on
	 */
	void start(SourceContext context);

	/**
	 * Stop putting keys; the controller calls it when its workers stop, and it may be
	 * started again.
	 */
	void stop();

	/**
	 * Return a source that application code pushes keys or objects into, such as an
	 * inbound HTTP endpoint or a message listener, as controller-runtime's
	 * {@code source.Channel}.
	 * @param name the source's name
	 * @return the source
	 */
	static ChannelSource channel(String name) {
		return new ChannelSource(name);
	}

	/**
	 * Return a source that polls external state on a period and enqueues the keys whose
	 * state changed since the previous poll, as Java Operator SDK's
	 * {@code PollingEventSource}.
	 * @param name the source's name
	 * @param period the time from the end of one poll to the start of the next
	 * @param poll returns the external state by primary key
	 * @return the source
	 */
	static PollingSource polling(String name, Duration period, Callable<? extends Map<Request, ?>> poll) {
		return new PollingSource(name, period, poll, null);
	}

	/**
	 * Return a source that polls the external state of each cached primary object on a
	 * period and enqueues the objects whose state changed, as Java Operator SDK's
	 * {@code PerResourcePollingEventSource}.
	 *
	 * <p>
	 * Only a change is seen, so the state must say what it is about: a bare
	 * {@code present} flag stays {@code false} when the external resource is lost,
	 * created again under a new id and lost again between two polls. Return the id with
	 * it, as a record, for example.
	 * @param <T> the primary type
	 * @param name the source's name
	 * @param type the primary type
	 * @param period the time from the end of one round of polls to the start of the next
	 * @param poll returns an object's external state, compared with {@code equals}
	 * @return the source
	 */
	static <T extends KubernetesObject> PerObjectPollingSource<T> perObject(String name, Class<T> type, Duration period,
			ObjectPoll<? super T> poll) {
		return new PerObjectPollingSource<>(name, type, period, poll, null);
	}

	/**
	 * Return a source that reconciles every cached primary object once per period.
	 * @param name the source's name
	 * @param period the period
	 * @return the source
	 */
	static TimerSource timer(String name, Duration period) {
		return new TimerSource(name, period, null, null);
	}

	/**
	 * Return a source that reconciles the keys a function returns once per period.
	 * @param name the source's name
	 * @param period the period
	 * @param keys returns the keys to reconcile on each tick
	 * @return the source
	 */
	static TimerSource timer(String name, Duration period, Callable<? extends Collection<Request>> keys) {
		return new TimerSource(name, period, keys, null);
	}

}
