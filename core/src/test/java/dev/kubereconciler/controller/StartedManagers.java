package dev.kubereconciler.controller;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;

/**
 * The controller managers a test starts against the test API server: each records the
 * errors its reconciles end with, and all are stopped after the test. A test registers it
 * with {@code @RegisterExtension}.
 */
final class StartedManagers implements AfterEachCallback {

	private final List<ControllerManager> managers = new CopyOnWriteArrayList<>();

	private final List<Failure> failures = new CopyOnWriteArrayList<>();

	/**
	 * Build a manager with a listener that records the errors, and start it.
	 * @param builder the manager's builder, without a listener
	 * @return the started manager
	 */
	ControllerManager start(ManagerBuilder builder) {
		ControllerManager manager = builder.listener(new ControllerListener() {

			@Override
			public void reconcileFinished(String controller, Request request, ReconcileOutcome outcome, long nanos,
					Throwable error) {
				if (error != null) {
					StartedManagers.this.failures.add(new Failure(controller, error));
				}
			}

		}).build();
		this.managers.add(manager);
		manager.start();
		return manager;
	}

	/**
	 * Return a manager by the order it was started in.
	 * @param index 0 for the first
	 * @return the manager
	 */
	ControllerManager get(int index) {
		return this.managers.get(index);
	}

	/**
	 * Return the errors reconciles ended with, each as {@code <controller>: <error>}.
	 * @return the errors, in order
	 */
	List<String> errors() {
		return this.failures.stream().map((failure) -> failure.controller() + ": " + failure.error()).toList();
	}

	/**
	 * Return the messages of the errors reconciles ended with.
	 * @return the messages, in order
	 */
	List<String> errorMessages() {
		return this.failures.stream().map((failure) -> failure.error().getMessage()).toList();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.managers.forEach(ControllerManager::stop);
	}

	private record Failure(String controller, Throwable error) {
	}

}
