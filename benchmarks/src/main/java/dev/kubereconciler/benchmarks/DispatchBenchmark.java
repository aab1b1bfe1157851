package dev.kubereconciler.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.MaxOfRateLimiter;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.micrometer.observation.ObservationRegistry;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

/**
 * Time to drain 100,000 distinct keys through a no-op reconcile on 2 workers: our
 * {@link Controller}, client-java's {@code DefaultController}, and a bare
 * {@link ThreadPoolExecutor} running the same no-op, which is the practical limit.
 *
 * <p>
 * Each invocation builds a fresh controller, enqueues every key before its workers start
 * (outside the measurement), then measures from starting the workers to the last
 * reconcile. The no-op counts down a latch, the same in all three. Every reconcile
 * succeeds, so limiters are only told to forget; the {@code limiter} parameter runs both
 * controllers once with the controller default (client-java's with its bucket corrected
 * to 10 per second) and once with a limiter that does nothing.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 5)
@Measurement(iterations = 30)
public class DispatchBenchmark {

	static final int WORKERS = 2;

	/**
	 * The keys, built once per trial.
	 */
	@State(Scope.Benchmark)
	public static class Work {

		@Param("100000")
		public int keys;

		Request[] ours;

		io.kubernetes.client.extended.controller.reconciler.Request[] clientJava;

		CountDownLatch remaining;

		@Setup(Level.Trial)
		public void setUp() {
			this.ours = Keys.ours("", this.keys);
			this.clientJava = Keys.clientJava("", this.keys);
		}

		void expectAll() {
			this.remaining = new CountDownLatch(this.keys);
		}

		void reconciled() {
			this.remaining.countDown();
		}

		void awaitDrained() throws InterruptedException {
			if (!this.remaining.await(5, TimeUnit.MINUTES)) {
				throw new IllegalStateException(this.remaining.getCount() + " keys were never reconciled");
			}
		}

	}

	/**
	 * Our controller, built by a manager that is never started, so that no informer runs.
	 */
	@State(Scope.Thread)
	public static class Ours {

		@Param({ "default", "none" })
		public String limiter;

		/**
		 * {@code system}; {@code frozen} only to diagnose how much of the time is spent
		 * reading the clock, which the engine does several times per key.
		 */
		@Param(Clocks.SYSTEM)
		public String ticker = Clocks.SYSTEM;

		/**
		 * {@code priority}, the default queue, or {@code plain}, the FIFO queue of
		 * {@code kube-reconciler.defaults.priority-queue: false}.
		 */
		@Param({ "priority", "plain" })
		public String queue;

		/**
		 * {@code off}, no observation registry (the default of a manager built without
		 * one); {@code noop}, a registry with no handler, which is what Spring Boot gives
		 * an application without metrics or tracing; {@code on}, a registry with one
		 * handler that does nothing, so that each reconcile makes its observation, key
		 * values and scope: the cost of the Observation API itself, before any tracer or
		 * meter.
		 */
		@Param("off")
		public String observations = "off";

		ScheduledThreadPoolExecutor scheduler;

		WorkQueueController controller;

		@Setup(Level.Invocation)
		public void setUp(Work work) {
			work.expectAll();
			this.scheduler = new ScheduledThreadPoolExecutor(1, Keys.daemonThreads("delays"));
			RateLimiter<Request> rateLimiter = "none".equals(this.limiter) ? RateLimiters.none()
					: RateLimiters.controllerDefault();
			ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
				.named("dispatch")
				.maxConcurrentReconciles(WORKERS)
				.rateLimiter(rateLimiter)
				.reconcile((request) -> {
					work.reconciled();
					return Result.done();
				});
			ManagerBuilder builder = ControllerManager.builder(new ApiClient().setReadTimeout(0))
				.clock(Clocks.scheduler(this.ticker, this.scheduler))
				.priorityQueue("priority".equals(this.queue))
				.controller(definition);
			if (!"off".equals(this.observations)) {
				builder.observations(ReconcileObservations.of(observationRegistry(this.observations)));
			}
			this.controller = (WorkQueueController) builder.build().controller(definition.name());
			for (Request key : work.ours) {
				this.controller.enqueue(key);
			}
		}

		private static ObservationRegistry observationRegistry(String observations) {
			ObservationRegistry registry = ObservationRegistry.create();
			if ("on".equals(observations)) {
				registry.observationConfig().observationHandler((context) -> true);
			}
			else if (!"noop".equals(observations)) {
				throw new IllegalArgumentException("observations must be off, noop or on, was " + observations);
			}
			return registry;
		}

		@TearDown(Level.Invocation)
		public void tearDown() {
			// stop() can stall for the 5 s abandon grace when a worker is between two
			// keys as it starts (see RESULTS.md); shutting the queue down releases the
			// workers just as well, and this controller is discarded anyway
			this.controller.workQueue().shutDown();
			this.scheduler.shutdownNow();
		}

	}

	/**
	 * Client-java's controller, built with its {@code ControllerBuilder} on a queue whose
	 * limiter is chosen explicitly.
	 */
	@State(Scope.Thread)
	public static class ClientJava {

		@Param({ "default", "none" })
		public String limiter;

		SharedInformerFactory informerFactory;

		ExecutorService waitingWorker;

		DefaultRateLimitingQueue<io.kubernetes.client.extended.controller.reconciler.Request> queue;

		io.kubernetes.client.extended.controller.Controller controller;

		Thread runner;

		@Setup(Level.Trial)
		public void createInformerFactory() {
			// the builder insists on a factory, and the factory on a client without read
			// timeout, although this controller watches nothing
			ApiClient apiClient = new ApiClient();
			apiClient.setReadTimeout(0);
			this.informerFactory = new SharedInformerFactory(apiClient);
		}

		@Setup(Level.Invocation)
		public void setUp(Work work) {
			work.expectAll();
			this.waitingWorker = Executors.newSingleThreadExecutor(Keys.daemonThreads("waiting"));
			this.queue = new DefaultRateLimitingQueue<>(this.waitingWorker, rateLimiter());
			this.controller = ControllerBuilder.defaultBuilder(this.informerFactory)
				.withName("dispatch")
				.withWorkQueue(this.queue)
				.withWorkerCount(WORKERS)
				.withReconciler((request) -> {
					work.reconciled();
					return new io.kubernetes.client.extended.controller.reconciler.Result(false);
				})
				.build();
			for (io.kubernetes.client.extended.controller.reconciler.Request key : work.clientJava) {
				this.queue.add(key);
			}
			// run() blocks until the workers exit, so it gets a thread of its own
			this.runner = Keys.daemonThreads("client-java-controller").newThread(this.controller);
		}

		private io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> rateLimiter() {
			if ("none".equals(this.limiter)) {
				return new io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<>() {

					@Override
					public Duration when(io.kubernetes.client.extended.controller.reconciler.Request item) {
						return Duration.ZERO;
					}

					@Override
					public void forget(io.kubernetes.client.extended.controller.reconciler.Request item) {
					}

					@Override
					public int numRequeues(io.kubernetes.client.extended.controller.reconciler.Request item) {
						return 0;
					}

				};
			}
			return new MaxOfRateLimiter<>(
					new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
					new BucketRateLimiter<>(100, 10, Duration.ofSeconds(1)));
		}

		@TearDown(Level.Invocation)
		public void tearDown() throws InterruptedException {
			this.controller.shutdown();
			this.runner.join(10_000);
			// the waiting loop polls with a 10 s heartbeat; interrupt it rather than wait
			this.waitingWorker.shutdownNow();
		}

	}

	/**
	 * A bare executor with as many threads as the controllers have workers, its queue
	 * filled with the same no-op over the same keys before its threads start.
	 */
	@State(Scope.Thread)
	public static class Bare {

		ThreadPoolExecutor executor;

		@Setup(Level.Invocation)
		public void setUp(Work work) {
			work.expectAll();
			LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
			for (Request key : work.ours) {
				tasks.add(() -> noop(work, key));
			}
			this.executor = new ThreadPoolExecutor(WORKERS, WORKERS, 0, TimeUnit.MILLISECONDS, tasks,
					Keys.daemonThreads("executor"));
		}

		private static Result noop(Work work, Request key) {
			work.reconciled();
			return Result.done();
		}

		@TearDown(Level.Invocation)
		public void tearDown() {
			this.executor.shutdownNow();
		}

	}

	@Benchmark
	public void ours(Work work, Ours ours) throws InterruptedException {
		ours.controller.start();
		work.awaitDrained();
	}

	@Benchmark
	public void clientJava(Work work, ClientJava clientJava) throws InterruptedException {
		clientJava.runner.start();
		work.awaitDrained();
	}

	@Benchmark
	public void executor(Work work, Bare bare) throws InterruptedException {
		// the threads take the queued tasks straight from the queue
		bare.executor.prestartAllCoreThreads();
		work.awaitDrained();
	}

}
