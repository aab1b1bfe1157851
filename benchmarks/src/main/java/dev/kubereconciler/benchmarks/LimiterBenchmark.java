package dev.kubereconciler.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.MaxOfRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.ReservingRateLimiter;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Throughput of a limiter's {@code when(item)}, ours side by side with
 * client-java-extended's, each pair configured to the same rates.
 *
 * <p>
 * Limiters are shared by all benchmark threads, as a controller's workers share theirs;
 * run with {@code -t 1} and {@code -t 2}. The per-item limiters see each thread's own
 * 1,024 keys in turn; every key fails {@value Cursor#FAILURES_PER_ROUND} times in a row,
 * then succeeds and is forgotten, so the per-item maps keep inserting and removing
 * entries as they do in a controller, and no failure count ever reaches client-java's
 * overflow.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LimiterBenchmark {

	private static final Duration BASE_DELAY = Duration.ofMillis(5);

	private static final Duration MAX_DELAY = Duration.ofSeconds(1000);

	private static final Request KEY = new Request("team-0", "config-0");

	private static final io.kubernetes.client.extended.controller.reconciler.Request CLIENT_JAVA_KEY = new io.kubernetes.client.extended.controller.reconciler.Request(
			"team-0", "config-0");

	/**
	 * A token bucket of each engine at the same rate: {@code controller-default} is
	 * client-go's 10 qps with a burst of 100, which every benchmark thread drives deep
	 * into debt within microseconds (both engines still answer at once, with the delay
	 * that debt implies); {@code unthrottled} is 10^9 qps with a burst of 100, which
	 * refills faster than any thread can take tokens, so the bucket stays full and every
	 * delay is zero.
	 */
	@State(Scope.Benchmark)
	public static class Buckets {

		@Param({ "controller-default", "unthrottled" })
		public String rate;

		TokenBucketRateLimiter<Request> ours;

		BucketRateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> clientJava;

		@Setup
		public void setUp() {
			long qps = "unthrottled".equals(this.rate) ? 1_000_000_000L : 10;
			this.ours = RateLimiters.bucket(qps, 100);
			// explicitly per second: client-java's own DefaultControllerRateLimiter
			// refills 10 tokens per minute, not per second
			this.clientJava = new BucketRateLimiter<>(100, qps, Duration.ofSeconds(1));
		}

	}

	/**
	 * The per-item limiters of each engine: exponential backoff from 5 ms to 1000 s,
	 * alone and combined with a 10 qps / 100 burst bucket as in the controller default.
	 */
	@State(Scope.Benchmark)
	public static class Backoff {

		ReservingRateLimiter<Request> oursExponential;

		ReservingRateLimiter<Request> oursDefault;

		RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> clientJavaExponential;

		RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> clientJavaDefault;

		@Setup
		public void setUp() {
			this.oursExponential = (ReservingRateLimiter<Request>) RateLimiters.<Request>exponential(BASE_DELAY,
					MAX_DELAY);
			this.oursDefault = (ReservingRateLimiter<Request>) RateLimiters.<Request>controllerDefault();
			this.clientJavaExponential = new ItemExponentialFailureRateLimiter<>(BASE_DELAY, MAX_DELAY);
			// client-java's DefaultControllerRateLimiter with its bucket corrected from
			// 10 tokens per minute to client-go's 10 per second
			this.clientJavaDefault = new MaxOfRateLimiter<>(
					new ItemExponentialFailureRateLimiter<>(BASE_DELAY, MAX_DELAY),
					new BucketRateLimiter<>(100, 10, Duration.ofSeconds(1)));
		}

	}

	/**
	 * Each thread's own keys and its position in them.
	 */
	@State(Scope.Thread)
	public static class Cursor {

		static final int KEYS = 1024;

		static final int FAILURES_PER_ROUND = 16;

		Request[] ours;

		io.kubernetes.client.extended.controller.reconciler.Request[] clientJava;

		private int next;

		private int failures;

		@Setup(Level.Trial)
		public void setUp(ThreadParams threads) {
			// real workers never hold the same key at once, so neither do the
			// threads here
			String prefix = "t" + threads.getThreadIndex() + "-";
			this.ours = Keys.ours(prefix, KEYS);
			this.clientJava = Keys.clientJava(prefix, KEYS);
		}

		Request nextOurs(ReservingRateLimiter<Request> limiter) {
			if (advance()) {
				for (Request key : this.ours) {
					limiter.forget(key);
				}
			}
			return this.ours[this.next];
		}

		io.kubernetes.client.extended.controller.reconciler.Request nextClientJava(
				RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> limiter) {
			if (advance()) {
				for (io.kubernetes.client.extended.controller.reconciler.Request key : this.clientJava) {
					limiter.forget(key);
				}
			}
			return this.clientJava[this.next];
		}

		/**
		 * Move to the next key.
		 * @return whether every key has just failed its last time in a row and must be
		 * forgotten
		 */
		private boolean advance() {
			if (++this.next < KEYS) {
				return false;
			}
			this.next = 0;
			if (++this.failures < FAILURES_PER_ROUND) {
				return false;
			}
			this.failures = 0;
			return true;
		}

	}

	/**
	 * The floor under every token bucket: one read of the clock, which both buckets make
	 * on every call.
	 * @return the reading
	 */
	@Benchmark
	public long clockRead() {
		return System.nanoTime();
	}

	/**
	 * The floor under every exact token bucket shared by threads: one read of the clock
	 * and one compare-and-set of a word that every thread writes, the least that keeps
	 * Go's reservation semantics (each caller's delay depends on every earlier caller's
	 * take). It advances a GCRA instant by 100 ms a call, as a bucket in debt at 10 qps
	 * does, without the rate, burst or limit checks of a real bucket.
	 * @param floor the shared instant
	 * @return the delay the call would wait
	 */
	@Benchmark
	public long clockAndSharedCas(SharedInstant floor) {
		long now = System.nanoTime();
		while (true) {
			long zeroAt = floor.zeroAt.get();
			long next = Math.max(zeroAt, now) + SharedInstant.INTERVAL_NANOS;
			if (floor.zeroAt.compareAndSet(zeroAt, next)) {
				return next - now;
			}
		}
	}

	/**
	 * The one word {@link #clockAndSharedCas} updates.
	 */
	@State(Scope.Benchmark)
	public static class SharedInstant {

		static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

		final AtomicLong zeroAt = new AtomicLong(System.nanoTime());

	}

	@Benchmark
	public Duration bucketOurs(Buckets buckets) {
		return buckets.ours.when(KEY);
	}

	@Benchmark
	public long bucketOursWhenNanos(Buckets buckets) {
		return buckets.ours.whenNanos(KEY);
	}

	@Benchmark
	public Duration bucketClientJava(Buckets buckets) {
		return buckets.clientJava.when(CLIENT_JAVA_KEY);
	}

	@Benchmark
	public Duration exponentialOurs(Backoff backoff, Cursor cursor) {
		return backoff.oursExponential.when(cursor.nextOurs(backoff.oursExponential));
	}

	@Benchmark
	public long exponentialOursWhenNanos(Backoff backoff, Cursor cursor) {
		return backoff.oursExponential.whenNanos(cursor.nextOurs(backoff.oursExponential));
	}

	@Benchmark
	public Duration exponentialClientJava(Backoff backoff, Cursor cursor) {
		return backoff.clientJavaExponential.when(cursor.nextClientJava(backoff.clientJavaExponential));
	}

	@Benchmark
	public Duration controllerDefaultOurs(Backoff backoff, Cursor cursor) {
		return backoff.oursDefault.when(cursor.nextOurs(backoff.oursDefault));
	}

	@Benchmark
	public long controllerDefaultOursWhenNanos(Backoff backoff, Cursor cursor) {
		return backoff.oursDefault.whenNanos(cursor.nextOurs(backoff.oursDefault));
	}

	@Benchmark
	public Duration controllerDefaultClientJava(Backoff backoff, Cursor cursor) {
		return backoff.clientJavaDefault.when(cursor.nextClientJava(backoff.clientJavaDefault));
	}

}
