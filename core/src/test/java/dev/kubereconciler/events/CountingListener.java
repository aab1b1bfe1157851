package dev.kubereconciler.events;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts writes and drops by reason.
 */
final class CountingListener implements EventRecorderListener {

	final AtomicInteger written = new AtomicInteger();

	private final Map<EventDrop, AtomicInteger> dropped = new ConcurrentHashMap<>();

	@Override
	public void written(String controller) {
		this.written.incrementAndGet();
	}

	@Override
	public void dropped(String controller, EventDrop reason) {
		this.dropped.computeIfAbsent(reason, (key) -> new AtomicInteger()).incrementAndGet();
	}

	int dropped(EventDrop reason) {
		AtomicInteger count = this.dropped.get(reason);
		return (count != null) ? count.get() : 0;
	}

}
