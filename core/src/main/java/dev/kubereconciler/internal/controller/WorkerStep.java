package dev.kubereconciler.internal.controller;

/**
 * What became of a key a {@link ReconcileWorker} took.
 */
enum WorkerStep {

	/** Reconciled and handled; the worker still holds it until it marks it done. */
	FINISHED,

	/** Already given back to the queue. */
	RELEASED,

	/** The watchdog retried it and replaced this worker, which must exit. */
	ABANDONED

}
