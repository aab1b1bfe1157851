package dev.kubereconciler.test.gc;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The uids waiting for the collector's turn, each once, in the order they came. */
final class WorkQueue {

	private final Set<String> pending = new LinkedHashSet<>();

	private final ScheduledExecutorService scheduler;

	WorkQueue(ScheduledExecutorService scheduler) {
		this.scheduler = scheduler;
	}

	void addAfter(String uid, Duration delay) {
		if (!this.scheduler.isShutdown()) {
			this.scheduler.schedule(() -> add(uid), delay.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	synchronized void add(String uid) {
		if (this.pending.add(uid)) {
			notifyAll();
		}
	}

	synchronized String take() throws InterruptedException {
		while (this.pending.isEmpty()) {
			wait();
		}
		Iterator<String> first = this.pending.iterator();
		String uid = first.next();
		first.remove();
		return uid;
	}

}
