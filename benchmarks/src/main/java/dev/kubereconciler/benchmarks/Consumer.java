package dev.kubereconciler.benchmarks;

/**
 * A background thread that takes keys from a work queue and finishes them at once,
 * counting how many it received, so that a benchmark can measure what a queue delivers
 * and not only what it accepts.
 */
final class Consumer {

	private final Thread thread;

	// written by the consumer thread alone, read by the benchmark threads
	private volatile long delivered;

	private Consumer(String name, Step step) {
		this.thread = new Thread(() -> run(step), "consumer-" + name);
		this.thread.setDaemon(true);
	}

	/**
	 * Start a consumer.
	 * @param name a name for its thread
	 * @param step takes one key and finishes it; returns {@code false} once the queue is
	 * shut down
	 * @return the running consumer
	 */
	static Consumer start(String name, Step step) {
		Consumer consumer = new Consumer(name, step);
		consumer.thread.start();
		return consumer;
	}

	private void run(Step step) {
		try {
			while (step.take()) {
				this.delivered++;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	long delivered() {
		return this.delivered;
	}

	/**
	 * Wait for the consumer to see that its queue was shut down.
	 * @throws InterruptedException if interrupted while waiting
	 */
	void stop() throws InterruptedException {
		this.thread.interrupt();
		this.thread.join(10_000);
	}

	/**
	 * Takes one key from a queue and finishes it.
	 */
	@FunctionalInterface
	interface Step {

		boolean take() throws InterruptedException;

	}

}
