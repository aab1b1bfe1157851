package dev.kubereconciler.sample.external;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import dev.kubereconciler.time.Ticker;

/**
 * The start times of recent calls, to report calls per second over a sliding window.
 */
final class CallLog {

	private final Ticker ticker;

	private final int capacity;

	private final Deque<Long> starts = new ArrayDeque<>();

	CallLog(Ticker ticker, int capacity) {
		this.ticker = ticker;
		this.capacity = capacity;
	}

	synchronized long record() {
		long now = this.ticker.read();
		this.starts.addLast(now);
		while (this.starts.size() > this.capacity) {
			this.starts.removeFirst();
		}
		return now;
	}

	/**
	 * Return the calls that started within the last {@code windowNanos}, per second.
	 */
	synchronized double perSecond(long windowNanos) {
		long since = this.ticker.read() - windowNanos;
		long count = this.starts.stream().filter((start) -> start - since >= 0).count();
		return count * 1e9 / windowNanos;
	}

	/**
	 * Return the start times of the recent calls, oldest first, in ticker nanoseconds.
	 */
	synchronized List<Long> starts() {
		return new ArrayList<>(this.starts);
	}

}
