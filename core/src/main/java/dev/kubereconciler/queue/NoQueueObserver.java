package dev.kubereconciler.queue;

/**
 * The {@link QueueObserver} that ignores everything.
 */
final class NoQueueObserver implements QueueObserver<Object> {

	static final NoQueueObserver INSTANCE = new NoQueueObserver();

	private NoQueueObserver() {
	}

}
