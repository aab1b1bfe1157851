package dev.kubereconciler.test.fault;

/**
 * The way bytes flow through a {@link FaultProxy}, to which a latency or bandwidth fault
 * applies.
 */
public enum Direction {

	/** From the application to the API server: requests. */
	TO_SERVER,

	/** From the API server to the application: responses and watch events. */
	TO_CLIENT

}
