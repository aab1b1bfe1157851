package dev.kubereconciler.test.assertions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Request;

/**
 * A {@link ControllerListener} that records the reconciles of every controller and key,
 * for {@link KubernetesAssertions#assertThat(ReconcileRecorder, String, Request)}.
 *
 * <p>
 * A plain manager takes it with {@code ControllerManager.builder(client).listener(...)}.
 * In a Spring test annotated with {@link dev.kubereconciler.test.KubernetesTest}, it is a
 * bean of the application context, which the auto-configured manager listens with, and
 * which the test gets injected with {@code @Autowired}. Since Spring caches contexts
 * between test classes, the recorder keeps what earlier tests recorded: {@link #clear()}
 * it, or assert on keys of the test's own namespace.
 */
public final class ReconcileRecorder implements ControllerListener {

	private final Map<Key, Reconciles> reconciles = new LinkedHashMap<>();

	@Override
	public synchronized void reconcileStarted(String controller, Request request) {
		this.reconciles.computeIfAbsent(new Key(controller, request), (key) -> new Reconciles()).started++;
	}

	@Override
	public synchronized void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
			@Nullable Throwable error) {
		this.reconciles.computeIfAbsent(new Key(controller, request), (key) -> new Reconciles()).finished
			.add(new RecordedReconcile(controller, request, outcome, error));
	}

	/**
	 * Return the finished reconciles of a key by a controller.
	 * @param controller the controller's name
	 * @param request the key
	 * @return the reconciles, in the order they finished
	 */
	public synchronized List<RecordedReconcile> reconciles(String controller, Request request) {
		Reconciles recorded = this.reconciles.get(new Key(controller, request));
		return (recorded != null) ? List.copyOf(recorded.finished) : List.of();
	}

	/**
	 * Forget everything recorded so far.
	 */
	public synchronized void clear() {
		this.reconciles.clear();
	}

	synchronized int started(String controller, Request request) {
		Reconciles recorded = this.reconciles.get(new Key(controller, request));
		return (recorded != null) ? recorded.started : 0;
	}

	/**
	 * Describe what a controller reconciled, for a failure that may have been caused by a
	 * wrong key or controller name.
	 */
	synchronized String describe(String controller) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		this.reconciles.forEach((key, recorded) -> {
			if (key.controller().equals(controller)) {
				counts.put(key.request().key(), recorded.finished.size());
			}
		});
		if (!counts.isEmpty()) {
			return "Controller '" + controller + "' reconciled (key=times): " + counts;
		}
		List<String> controllers = this.reconciles.keySet().stream().map(Key::controller).distinct().toList();
		return "Controller '" + controller + "' reconciled nothing; controllers heard: " + controllers;
	}

	private record Key(String controller, Request request) {
	}

	private static final class Reconciles {

		private int started;

		private final List<RecordedReconcile> finished = new ArrayList<>();

	}

}
