package dev.kubereconciler.sharding;

/**
 * Where a partition's handover stands after a poll.
 */
public enum HandoverStep {

	/** Dispatching has stopped; in-flight reconciles of the partition may still run. */
	DRAINING,

	/**
	 * The shutdown timeout passed and the remaining in-flight reconciles were
	 * interrupted.
	 */
	INTERRUPTED,

	/**
	 * No reconcile of the partition runs (or the grace after the interrupt ran out):
	 * release the Lease now.
	 */
	RELEASE

}
