package dev.kubereconciler.test.gc;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/** The uids waiting for the collector's turn, each once, in the order they came. */
final class WorkQueue {

	private final Set<String> pending = new LinkedHashSet<>();

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
