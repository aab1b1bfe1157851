package dev.kubereconciler.benchmarks;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.kubereconciler.webhook.server.WebhookListener;

/**
 * The webhook server's own time per request, as its {@link WebhookListener} hears it:
 * from the request's arrival at the handler to the answer written, which leaves out the
 * TLS handshake, the parsing of the HTTP headers and any wait for a server thread.
 */
final class ServerTimes implements WebhookListener {

	private volatile Recording recording = new Recording(0);

	/**
	 * Forget what was recorded and record up to {@code capacity} requests from now on.
	 * @param capacity how many requests to keep; later ones are counted only
	 */
	void restart(int capacity) {
		this.recording = new Recording(capacity);
	}

	@Override
	public void finished(String path, int code, long nanos) {
		Recording recording = this.recording;
		if (code != 200) {
			recording.errors.incrementAndGet();
		}
		int slot = recording.slots.getAndIncrement();
		if (slot < recording.nanos.length()) {
			recording.nanos.set(slot, nanos);
		}
		// counted last, so that a reader who waits for the count finds every time set
		recording.calls.incrementAndGet();
	}

	/**
	 * Return how many requests were answered since the last {@link #restart}.
	 * @return the count
	 */
	int calls() {
		return this.recording.calls.get();
	}

	/**
	 * Return how many of them were answered with another status than 200.
	 * @return the count
	 */
	int errors() {
		return this.recording.errors.get();
	}

	/**
	 * Return the times recorded since the last {@link #restart}. The server hears the end
	 * of a request after writing its answer, so the API server may have answered its
	 * client before it is counted: wait for {@link #calls()} to reach the count expected
	 * first.
	 * @return nanoseconds, sorted
	 */
	long[] sorted() {
		Recording recording = this.recording;
		long[] sorted = new long[Math.min(recording.calls.get(), recording.nanos.length())];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = recording.nanos.get(i);
		}
		Arrays.sort(sorted);
		return sorted;
	}

	private static final class Recording {

		private final AtomicLongArray nanos;

		private final AtomicInteger slots = new AtomicInteger();

		private final AtomicInteger calls = new AtomicInteger();

		private final AtomicInteger errors = new AtomicInteger();

		Recording(int capacity) {
			this.nanos = new AtomicLongArray(capacity);
		}

	}

}
