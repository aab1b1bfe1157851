package dev.kubereconciler.events;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * client-go's {@code EventSourceObjectSpamFilter} ({@code tools/record/events_cache.go}):
 * one token bucket per source and object, starting full with
 * {@code defaultSpamBurst = 25} tokens and refilling at {@code defaultSpamQPS = 1/300},
 * one token every 5 minutes. An event that finds the bucket empty is dropped; there is no
 * debt ({@code TryAccept}). The buckets live in an LRU cache of
 * {@code maxLruCacheEntries = 4096} keys, so an object that was quiet long enough to be
 * evicted starts again with a full bucket, as in client-go.
 */
final class SpamFilter {

	/** client-go's {@code defaultSpamBurst}. */
	static final int BURST = 25;

	/** One token per {@code 1 / defaultSpamQPS} seconds. */
	static final Duration REFILL = Duration.ofMinutes(5);

	/** client-go's {@code maxLruCacheEntries}. */
	static final int CACHE_SIZE = 4096;

	private final Map<Object, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<Object, Bucket> eldest) {
			return size() > CACHE_SIZE;
		}

	};

	/**
	 * Take a token for the key at the given time.
	 * @param key the source and object
	 * @param now the current time
	 * @return {@code true} if the event may be written, {@code false} if it is spam
	 */
	synchronized boolean tryAccept(Object key, Instant now) {
		Bucket bucket = this.buckets.computeIfAbsent(key, (k) -> new Bucket(now));
		return bucket.tryTake(now);
	}

	/**
	 * A token bucket that refills continuously, as Go's {@code rate.Limiter}.
	 */
	private static final class Bucket {

		private double tokens = BURST;

		private Instant last;

		Bucket(Instant now) {
			this.last = now;
		}

		boolean tryTake(Instant now) {
			if (now.isAfter(this.last)) {
				double elapsed = Duration.between(this.last, now).toNanos() / (double) REFILL.toNanos();
				this.tokens = Math.min(BURST, this.tokens + elapsed);
				this.last = now;
			}
			if (this.tokens >= 1) {
				this.tokens -= 1;
				return true;
			}
			return false;
		}

	}

}
