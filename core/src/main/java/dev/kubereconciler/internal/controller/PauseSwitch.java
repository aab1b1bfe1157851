package dev.kubereconciler.internal.controller;

/**
 * Holds a controller's workers between keys while it is paused, and lets them go on
 * resume or when the controller stops.
 */
final class PauseSwitch {

	private final Object monitor = new Object();

	private volatile boolean paused;

	// set while the controller stops, so that a paused worker goes on to find its queue
	// shut down
	private volatile boolean released;

	boolean isPaused() {
		return this.paused;
	}

	void pause() {
		this.paused = true;
	}

	void resume() {
		this.paused = false;
		wake();
	}

	/**
	 * Let every waiting worker go, paused or not, because the controller stops.
	 */
	void release() {
		this.released = true;
		wake();
	}

	/**
	 * Hold paused workers again, because the controller starts.
	 */
	void engage() {
		this.released = false;
	}

	void awaitUnpaused() throws InterruptedException {
		if (!this.paused) {
			return;
		}
		synchronized (this.monitor) {
			while (this.paused && !this.released) {
				this.monitor.wait();
			}
		}
	}

	private void wake() {
		synchronized (this.monitor) {
			this.monitor.notifyAll();
		}
	}

}
