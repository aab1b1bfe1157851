package dev.kubereconciler.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import dev.kubereconciler.internal.queue.ReconcileQueue;
import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Work-queue throughput, ours side by side with client-java-extended's
 * {@code DefaultRateLimitingQueue}. Our rows come in both modes, {@code mode=plain} and
 * {@code mode=priority}.
 *
 * <p>
 * {@code addGetDone*}: each invocation adds a batch of {@value #BATCH} distinct keys that
 * are not pending, then takes and finishes as many, so no add is deduplicated and no
 * {@code get()} waits for ever; the score is per key (one add, one get, one done). Run
 * with {@code -t 1} and {@code -t 2}; threads share one queue.
 *
 * <p>
 * {@code addAfter*}: one benchmark thread calls {@code addAfter(key, 1 ms)} over 65,536
 * keys in turn while a background consumer takes and finishes every key that becomes
 * ready. The primary score is {@code addAfter} calls; the secondary {@code delivered}
 * score counts keys the consumer received in the same time, which is the work the queue
 * actually did.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class QueueBenchmark {

	static final int BATCH = 1000;

	static final int DELAYED_KEYS = 1 << 16;

	static final Duration SHORT_DELAY = Duration.ofMillis(1);

	static final String PLAIN = "plain";

	static final String PRIORITY = "priority";

	/**
	 * Our queue, with its delays on one scheduler thread as a manager runs it.
	 */
	@State(Scope.Benchmark)
	public static class OurQueue {

		/**
		 * {@code system}; {@code frozen} only to diagnose how much of the time is spent
		 * reading the clock, which the queue does on every add, get and done.
		 */
		@Param(Clocks.SYSTEM)
		public String ticker = Clocks.SYSTEM;

		/**
		 * {@code plain} (first in, first out) or {@code priority} (the default of a
		 * manager: ready keys ordered by priority, see {@code docs/rate-limiting.md}).
		 */
		@Param({ PLAIN, PRIORITY })
		public String mode = PLAIN;

		ScheduledThreadPoolExecutor scheduler;

		ReconcileQueue<Request> queue;

		@Setup(Level.Trial)
		public void setUp() {
			this.scheduler = new ScheduledThreadPoolExecutor(1, Keys.daemonThreads("delays"));
			this.scheduler.setRemoveOnCancelPolicy(true);
			this.queue = ReconcileQueue.<Request>builder()
				.name("benchmark")
				.rateLimiter(RateLimiters.controllerDefault())
				.scheduler(Clocks.scheduler(this.ticker, this.scheduler))
				.priority(PRIORITY.equals(this.mode))
				.build();
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.queue.shutDown();
			this.scheduler.shutdownNow();
		}

	}

	/**
	 * Client-java's queue, with its waiting loop on a thread of its own as its builder
	 * sets it up.
	 */
	@State(Scope.Benchmark)
	public static class ClientJavaQueue {

		ExecutorService waitingWorker;

		DefaultRateLimitingQueue<io.kubernetes.client.extended.controller.reconciler.Request> queue;

		@Setup(Level.Trial)
		public void setUp() {
			this.waitingWorker = Executors.newSingleThreadExecutor(Keys.daemonThreads("waiting"));
			this.queue = new DefaultRateLimitingQueue<>(this.waitingWorker);
		}

		@TearDown(Level.Trial)
		public void tearDown() {
			this.queue.shutDown();
			// the waiting loop polls with a 10 s heartbeat; interrupt it rather than wait
			this.waitingWorker.shutdownNow();
		}

	}

	/**
	 * The keys a thread may add: at first its own batch, then the keys it took and
	 * finished in its previous invocation. A key is thus always either pending in the
	 * queue or owned by exactly one thread, so no add is ever deduplicated and every
	 * {@code get()} finds a key, even when threads take each other's keys.
	 */
	@State(Scope.Thread)
	public static class Batch {

		Request[] ours;

		io.kubernetes.client.extended.controller.reconciler.Request[] clientJava;

		@Setup(Level.Trial)
		public void setUp(ThreadParams threads) {
			String prefix = "t" + threads.getThreadIndex() + "-";
			this.ours = Keys.ours(prefix, BATCH);
			this.clientJava = Keys.clientJava(prefix, BATCH);
		}

	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void addGetDoneOurs(OurQueue queue, Batch batch) throws InterruptedException {
		ReconcileQueue<Request> q = queue.queue;
		Request[] keys = batch.ours;
		for (int i = 0; i < BATCH; i++) {
			// half of them as an initial list would add them; the plain queue
			// ignores priorities
			q.add(keys[i], Trigger.EVENT, ((i & 1) == 0) ? Priorities.LOW : Priorities.NORMAL);
		}
		for (int i = 0; i < BATCH; i++) {
			Request key = q.get().orElseThrow();
			q.done(key);
			keys[i] = key;
		}
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void addGetDoneClientJava(ClientJavaQueue queue, Batch batch) throws InterruptedException {
		DefaultRateLimitingQueue<io.kubernetes.client.extended.controller.reconciler.Request> q = queue.queue;
		io.kubernetes.client.extended.controller.reconciler.Request[] keys = batch.clientJava;
		for (io.kubernetes.client.extended.controller.reconciler.Request key : keys) {
			q.add(key);
		}
		for (int i = 0; i < BATCH; i++) {
			io.kubernetes.client.extended.controller.reconciler.Request key = q.get();
			q.done(key);
			keys[i] = key;
		}
	}

	/**
	 * Our queue, drained by a background consumer.
	 */
	@State(Scope.Benchmark)
	public static class OurDelayedQueue {

		final OurQueue delegate = new OurQueue();

		/**
		 * The queue's mode, as for {@link OurQueue#mode}.
		 */
		@Param({ PLAIN, PRIORITY })
		public String mode = PLAIN;

		Consumer consumer;

		@Setup(Level.Trial)
		public void setUp() {
			this.delegate.mode = this.mode;
			this.delegate.setUp();
			ReconcileQueue<Request> queue = this.delegate.queue;
			this.consumer = Consumer.start("ours", () -> {
				Optional<Request> key = queue.get();
				key.ifPresent(queue::done);
				return key.isPresent();
			});
		}

		@TearDown(Level.Trial)
		public void tearDown() throws InterruptedException {
			this.delegate.tearDown();
			this.consumer.stop();
		}

	}

	/**
	 * Client-java's queue, drained by a background consumer.
	 */
	@State(Scope.Benchmark)
	public static class ClientJavaDelayedQueue {

		final ClientJavaQueue delegate = new ClientJavaQueue();

		Consumer consumer;

		@Setup(Level.Trial)
		public void setUp() {
			this.delegate.setUp();
			DefaultRateLimitingQueue<io.kubernetes.client.extended.controller.reconciler.Request> queue = this.delegate.queue;
			this.consumer = Consumer.start("client-java", () -> {
				io.kubernetes.client.extended.controller.reconciler.Request key = queue.get();
				if (key != null) {
					queue.done(key);
				}
				return key != null;
			});
		}

		@TearDown(Level.Trial)
		public void tearDown() throws InterruptedException {
			this.delegate.tearDown();
			this.consumer.stop();
		}

	}

	/**
	 * The producer of delayed adds to our queue, and the keys its consumer received
	 * during the iteration.
	 */
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	@State(Scope.Thread)
	public static class OurProducer {

		private final Request[] keys = Keys.ours("delayed-", DELAYED_KEYS);

		private int next;

		private Consumer consumer;

		private long deliveredBefore;

		@Setup(Level.Iteration)
		public void startCounting(OurDelayedQueue queue) {
			this.consumer = queue.consumer;
			this.deliveredBefore = this.consumer.delivered();
		}

		public long delivered() {
			return this.consumer.delivered() - this.deliveredBefore;
		}

		Request next() {
			this.next = (this.next + 1) & (DELAYED_KEYS - 1);
			return this.keys[this.next];
		}

	}

	/**
	 * The producer of delayed adds to client-java's queue, and the keys its consumer
	 * received during the iteration.
	 */
	@AuxCounters(AuxCounters.Type.OPERATIONS)
	@State(Scope.Thread)
	public static class ClientJavaProducer {

		private final io.kubernetes.client.extended.controller.reconciler.Request[] keys = Keys.clientJava("delayed-",
				DELAYED_KEYS);

		private int next;

		private Consumer consumer;

		private long deliveredBefore;

		@Setup(Level.Iteration)
		public void startCounting(ClientJavaDelayedQueue queue) {
			this.consumer = queue.consumer;
			this.deliveredBefore = this.consumer.delivered();
		}

		public long delivered() {
			return this.consumer.delivered() - this.deliveredBefore;
		}

		io.kubernetes.client.extended.controller.reconciler.Request next() {
			this.next = (this.next + 1) & (DELAYED_KEYS - 1);
			return this.keys[this.next];
		}

	}

	@Benchmark
	public void addAfterOurs(OurDelayedQueue queue, OurProducer producer) {
		queue.delegate.queue.addAfter(producer.next(), SHORT_DELAY, Trigger.REQUEUE_AFTER);
	}

	@Benchmark
	public void addAfterClientJava(ClientJavaDelayedQueue queue, ClientJavaProducer producer) {
		queue.delegate.queue.addAfter(producer.next(), SHORT_DELAY);
	}

}
