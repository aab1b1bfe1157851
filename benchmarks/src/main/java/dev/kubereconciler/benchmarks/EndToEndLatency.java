package dev.kubereconciler.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

/**
 * Measures the latency from a ConfigMap's creation to its first reconcile, against a real
 * API server, for our controller and client-java's {@code DefaultController} in the same
 * run.
 *
 * <p>
 * Both controllers watch the same fresh namespace through informers of their own and run
 * 2 workers with a no-op reconcile. The harness creates ConfigMaps at a fixed rate from a
 * small pool of writer threads. The event time of a ConfigMap is
 * {@link System#nanoTime()} read on the writer thread just before its create request is
 * sent, so a latency includes the create round trip, etcd, the watch, the informer, the
 * queue and the worker; it is the same path for both controllers, which receive the same
 * events at the same time. The first {@code warm-up} ConfigMaps warm up the JIT and
 * connections and are not counted.
 *
 * <p>
 * Usage: {@code EndToEndLatency KUBECONFIG [rate per second] [count] [warm-up]}, by
 * default 100/s, 3,000 and 300. {@code benchmarks/e2e.sh} starts a throwaway API server
 * and runs it.
 */
public final class EndToEndLatency {

	private static final int WORKERS = 2;

	private static final int WRITERS = 4;

	private final String kubeconfig;

	private final String namespace = "e2e-" + System.currentTimeMillis();

	private final CoreV1Api writer;

	private EndToEndLatency(String kubeconfig) throws IOException {
		this.kubeconfig = kubeconfig;
		this.writer = new CoreV1Api(Config.fromConfig(kubeconfig));
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("Usage: EndToEndLatency KUBECONFIG [rate per second] [count] [warm-up]");
			System.exit(2);
		}
		int rate = (args.length > 1) ? Integer.parseInt(args[1]) : 100;
		int count = (args.length > 2) ? Integer.parseInt(args[2]) : 3000;
		int warmUp = (args.length > 3) ? Integer.parseInt(args[3]) : 300;
		new EndToEndLatency(args[0]).run(rate, count, warmUp);
		// client-java leaves non-daemon threads behind (its OkHttp pools and the
		// executor that every DefaultControllerBuilder creates), so the JVM would not
		// exit on its own
		System.exit(0);
	}

	private void run(int rate, int count, int warmUp) throws Exception {
		System.out.printf("%s: %d ConfigMaps at %d/s after %d for warm-up, namespace %s, %d workers each%n",
				Instant.now(), count, rate, warmUp, this.namespace, WORKERS);
		this.writer.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(this.namespace))).execute();
		int total = warmUp + count;
		Recorder ours = new Recorder(total);
		Recorder clientJava = new Recorder(total);
		ControllerManager manager = startOurs(ours);
		ClientJavaController other = startClientJava(clientJava);
		try {
			AtomicLongArray createdAt = create(total, rate);
			ours.awaitAll(Duration.ofSeconds(60));
			clientJava.awaitAll(Duration.ofSeconds(60));
			report("kube-reconciler Controller", ours, createdAt, warmUp);
			report("client-java DefaultController", clientJava, createdAt, warmUp);
		}
		finally {
			manager.stop();
			other.stop();
			this.writer.deleteNamespace(this.namespace).execute();
		}
	}

	private ControllerManager startOurs(Recorder recorder) throws IOException {
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("e2e")
			.namespaces(this.namespace)
			.maxConcurrentReconciles(WORKERS)
			.reconcile((request) -> {
				recorder.reconciled(request.name());
				return Result.done();
			});
		ControllerManager manager = ControllerManager.builder(informerClient()).controller(definition).build();
		// returns once the cache has synced and the workers run
		manager.start();
		return manager;
	}

	private ClientJavaController startClientJava(Recorder recorder) throws IOException {
		ApiClient client = informerClient();
		SharedInformerFactory factory = new SharedInformerFactory(client);
		SharedIndexInformer<V1ConfigMap> informer = factory.sharedIndexInformerFor(
				new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1", "configmaps", client),
				V1ConfigMap.class, 0, this.namespace);
		io.kubernetes.client.extended.controller.Controller controller = ControllerBuilder.defaultBuilder(factory)
			.withName("e2e-client-java")
			.withWorkerCount(WORKERS)
			.withReadyFunc(informer::hasSynced)
			.watch((queue) -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, queue).build())
			.withReconciler((request) -> {
				recorder.reconciled(request.getName());
				return new io.kubernetes.client.extended.controller.reconciler.Result(false);
			})
			.build();
		factory.startAllRegisteredInformers();
		Thread runner = Keys.daemonThreads("client-java-controller").newThread(controller);
		runner.start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!informer.hasSynced()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("client-java's informer did not sync within 60 s");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
		return new ClientJavaController(factory, controller);
	}

	private ApiClient informerClient() throws IOException {
		ApiClient client = Config.fromConfig(this.kubeconfig);
		// watches are long-lived; both engines' informers require this
		client.setReadTimeout(0);
		return client;
	}

	/**
	 * Create ConfigMaps {@code cm-0} to {@code cm-(total-1)} at a fixed rate.
	 * @return the time just before each create request was sent, by index
	 */
	private AtomicLongArray create(int total, int rate) throws InterruptedException {
		AtomicLongArray createdAt = new AtomicLongArray(total);
		AtomicLongArray roundTrips = new AtomicLongArray(total);
		AtomicInteger failures = new AtomicInteger();
		ExecutorService writers = Executors.newFixedThreadPool(WRITERS, Keys.daemonThreads("writer"));
		long interval = TimeUnit.SECONDS.toNanos(1) / rate;
		long start = System.nanoTime();
		for (int i = 0; i < total; i++) {
			long due = start + i * interval;
			for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			int index = i;
			writers.execute(() -> {
				V1ConfigMap configMap = new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(name(index)).namespace(this.namespace))
					.putDataItem("index", Integer.toString(index));
				long sent = System.nanoTime();
				createdAt.set(index, sent);
				try {
					this.writer.createNamespacedConfigMap(this.namespace, configMap).execute();
					roundTrips.set(index, System.nanoTime() - sent);
				}
				catch (ApiException ex) {
					failures.incrementAndGet();
				}
			});
		}
		writers.shutdown();
		writers.awaitTermination(2, TimeUnit.MINUTES);
		double seconds = (System.nanoTime() - start) / 1e9;
		long[] sorted = new long[total];
		for (int i = 0; i < total; i++) {
			sorted[i] = roundTrips.get(i);
		}
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT,
				"created %d ConfigMaps in %.1f s (%.1f/s), %d create failures; create round trip p50 %.2f ms, p99 %.2f ms%n",
				total, seconds, total / seconds, failures.get(), millis(sorted, 0.50), millis(sorted, 0.99));
		return createdAt;
	}

	private static void report(String name, Recorder recorder, AtomicLongArray createdAt, int warmUp) {
		int count = createdAt.length() - warmUp;
		long[] latencies = new long[count];
		int seen = 0;
		for (int i = warmUp; i < createdAt.length(); i++) {
			long reconciledAt = recorder.firstReconcile(i);
			if (reconciledAt != 0) {
				latencies[seen++] = reconciledAt - createdAt.get(i);
			}
		}
		long[] sorted = Arrays.copyOf(latencies, seen);
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT,
				"%-30s reconciled %d of %d   p50 %7.2f ms   p90 %7.2f ms   p99 %7.2f ms   max %7.2f ms%n", name, seen,
				count, millis(sorted, 0.50), millis(sorted, 0.90), millis(sorted, 0.99), millis(sorted, 1.0));
	}

	private static double millis(long[] sorted, double quantile) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		// nearest rank
		int rank = (int) Math.ceil(quantile * sorted.length);
		return sorted[Math.max(0, rank - 1)] / 1e6;
	}

	static String name(int index) {
		return "cm-" + index;
	}

	/**
	 * When each ConfigMap was first reconciled.
	 */
	static final class Recorder {

		private final AtomicLongArray firstReconcile;

		private final AtomicInteger remaining;

		Recorder(int total) {
			this.firstReconcile = new AtomicLongArray(total);
			this.remaining = new AtomicInteger(total);
		}

		void reconciled(String name) {
			long now = System.nanoTime();
			if (!name.startsWith("cm-")) {
				return;
			}
			int index = Integer.parseInt(name, 3, name.length(), 10);
			if (this.firstReconcile.compareAndSet(index, 0, now)) {
				this.remaining.decrementAndGet();
			}
		}

		boolean isComplete() {
			return this.remaining.get() <= 0;
		}

		long firstReconcile(int index) {
			return this.firstReconcile.get(index);
		}

		void awaitAll(Duration timeout) {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (this.remaining.get() > 0 && System.nanoTime() - deadline < 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}

	}

	/**
	 * Client-java's controller and the informers it runs on.
	 */
	private record ClientJavaController(SharedInformerFactory factory,
			io.kubernetes.client.extended.controller.Controller controller) {

		void stop() {
			this.controller.shutdown();
			this.factory.stopAllRegisteredInformers(true);
		}

	}

}
