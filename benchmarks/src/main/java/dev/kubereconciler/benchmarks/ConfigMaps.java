package dev.kubereconciler.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;

/**
 * Creates the ConfigMaps of the peer workloads, named {@code cm-0} to {@code cm-(n-1)},
 * each with 1 KiB of data.
 */
final class ConfigMaps {

	private static final int WRITERS = 8;

	static final String PAYLOAD = "x".repeat(1024);

	private final ApiClient client;

	private final CoreV1Api core;

	ConfigMaps(ApiClient client) {
		this.client = client;
		this.core = new CoreV1Api(client);
	}

	void createNamespace(String namespace) throws ApiException {
		this.core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
	}

	void deleteNamespace(String namespace) {
		try {
			this.core.deleteNamespace(namespace).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				System.out.println("could not delete namespace " + namespace + ": " + ex.getCode());
			}
		}
	}

	/**
	 * Create ConfigMaps {@code from} to {@code to - 1} with server-side apply by two
	 * field managers, so that each carries the {@code managedFields} of a real cluster:
	 * one manager owns the data and a label, the other an annotation and a label of its
	 * own.
	 */
	void applyTwoManagers(String namespace, int from, int to) throws Exception {
		applyTwoManagers(namespace, from, to, WRITERS);
	}

	/**
	 * Create ConfigMaps {@code from} to {@code to - 1} as
	 * {@link #applyTwoManagers(String, int, int)} does, with {@code writers} requests at
	 * a time.
	 */
	void applyTwoManagers(String namespace, int from, int to, int writers) throws Exception {
		long start = System.nanoTime();
		run(from, to, writers, (index) -> {
			String name = EndToEndLatency.name(index);
			apply(namespace, name, "bench-alpha", """
					{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s",
					"labels":{"app.kubernetes.io/name":"bench","bench/index":"%d"}},"data":{"payload":"%s"}}"""
				.formatted(name, namespace, index, PAYLOAD));
			apply(namespace, name, "bench-beta", """
					{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s",
					"labels":{"bench/tier":"beta"},"annotations":{"bench/owner":"beta"}}}""".formatted(name,
					namespace));
		});
		double seconds = (System.nanoTime() - start) / 1e9;
		System.out.printf(Locale.ROOT, "applied %d ConfigMaps in %s with two field managers in %.1f s (%.0f/s)%n",
				to - from, namespace, seconds, (to - from) / seconds);
	}

	private void apply(String namespace, String name, String manager, String body) throws ApiException {
		PatchUtils.patch(V1ConfigMap.class,
				() -> this.core.patchNamespacedConfigMap(name, namespace, new V1Patch(body))
					.fieldManager(manager)
					.force(true)
					.buildCall(null),
				V1Patch.PATCH_FORMAT_APPLY_YAML, this.client);
	}

	/**
	 * Create ConfigMaps {@code 0} to {@code count - 1} as fast as the writers go.
	 */
	void create(String namespace, int count) throws Exception {
		run(0, count, WRITERS,
				(index) -> this.core.createNamespacedConfigMap(namespace, configMap(namespace, index)).execute());
	}

	/**
	 * Create ConfigMaps {@code 0} to {@code count - 1} at a fixed rate.
	 * @return the time just before each create request was sent, by index
	 */
	AtomicLongArray createAtRate(String namespace, int count, int rate) throws InterruptedException {
		AtomicLongArray createdAt = new AtomicLongArray(count);
		AtomicInteger failures = new AtomicInteger();
		ExecutorService writers = Executors.newFixedThreadPool(WRITERS, Keys.daemonThreads("writer"));
		long interval = TimeUnit.SECONDS.toNanos(1) / rate;
		long start = System.nanoTime();
		for (int i = 0; i < count; i++) {
			long due = start + i * interval;
			for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			int index = i;
			writers.execute(() -> {
				createdAt.set(index, System.nanoTime());
				try {
					this.core.createNamespacedConfigMap(namespace, configMap(namespace, index)).execute();
				}
				catch (ApiException ex) {
					failures.incrementAndGet();
				}
			});
		}
		writers.shutdown();
		writers.awaitTermination(2, TimeUnit.MINUTES);
		double seconds = (System.nanoTime() - start) / 1e9;
		System.out.printf(Locale.ROOT, "  created %d ConfigMaps in %.1f s (%.1f/s), %d create failures%n", count,
				seconds, count / seconds, failures.get());
		return createdAt;
	}

	private static V1ConfigMap configMap(String namespace, int index) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(EndToEndLatency.name(index)).namespace(namespace))
			.putDataItem("payload", PAYLOAD);
	}

	private static void run(int from, int to, int threads, IndexTask task) throws Exception {
		ExecutorService writers = Executors.newFixedThreadPool(threads, Keys.daemonThreads("writer"));
		try {
			List<Future<?>> futures = new ArrayList<>();
			int chunk = Math.max(1, (to - from + threads - 1) / threads);
			for (int first = from; first < to; first += chunk) {
				int begin = first;
				int end = Math.min(to, first + chunk);
				futures.add(writers.submit(() -> {
					for (int index = begin; index < end; index++) {
						task.run(index);
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			writers.shutdownNow();
		}
	}

	/**
	 * One write, by index.
	 */
	@FunctionalInterface
	private interface IndexTask {

		void run(int index) throws Exception;

	}

}
