package dev.kubereconciler.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

/**
 * The live heap of a controller that reads Secrets, with the Secrets cached by an
 * informer (a mapped watch, so that the context can read them) against read through
 * ({@code CacheOptions.readThrough}), each in a JVM of its own: a read-through type holds
 * nothing in the heap.
 *
 * <p>
 * Usage: {@code ReadThroughMemory KUBECONFIG MODE NAMESPACE COUNT}, where MODE is
 * {@code cached}, {@code read-through} or {@code none} (no Secret read at all, the
 * baseline). It waits until the controller of the one ConfigMap {@code reader} read
 * {@code secret-0} through its context, then prints
 * {@code memory MODE COUNT LIVE-BYTES USED-BYTES}. {@code ReadThroughMemory KUBECONFIG
 * populate NAMESPACE COUNT} creates the namespace, COUNT Secrets of 1 KiB of data and the
 * ConfigMap.
 */
public final class ReadThroughMemory {

	private ReadThroughMemory() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 4) {
			System.err.println("Usage: ReadThroughMemory KUBECONFIG cached|read-through|none|populate NAMESPACE COUNT");
			System.exit(2);
		}
		ApiClient client = ControllerPeers.informerClient(Path.of(args[0]));
		String namespace = args[2];
		int count = Integer.parseInt(args[3]);
		if ("populate".equals(args[1])) {
			populate(client, namespace, count);
			System.exit(0);
		}
		AtomicInteger reads = new AtomicInteger();
		ControllerManager manager = manager(client, args[1], namespace, reads);
		manager.start();
		try {
			long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
			while (reads.get() == 0 && System.nanoTime() - deadline < 0) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			}
			if (reads.get() == 0) {
				throw new IllegalStateException("The controller did not reconcile the ConfigMap 'reader'");
			}
			long used = LimiterMemory.usedAfterCollections();
			long live = PeerMemory.liveBytes(Integer.getInteger("peer.memory.histogram", 0));
			System.out.printf(Locale.ROOT, "memory %s %d %d %d%n", args[1], count, live, used);
		}
		finally {
			manager.stop();
		}
		System.exit(0);
	}

	private static ControllerManager manager(ApiClient client, String mode, String namespace, AtomicInteger reads) {
		ControllerDefinitionBuilder<V1ConfigMap> builder = ControllerDefinition.builder(V1ConfigMap.class)
			.named("reader")
			.namespaces(namespace);
		CacheOptions options = CacheOptions.defaults();
		switch (mode) {
			case "cached" -> builder.maps(V1Secret.class, (secret) -> List.of());
			case "read-through" -> options = options.readThrough(V1Secret.class);
			case "none" -> {
			}
			default -> throw new IllegalArgumentException("unknown mode " + mode);
		}
		boolean readsSecrets = !"none".equals(mode);
		ControllerDefinition definition = builder.reconcile((configMap, context) -> {
			if (readsSecrets && context.get(V1Secret.class, namespace, "secret-0").isEmpty()) {
				throw new IllegalStateException("secret-0 not found");
			}
			reads.incrementAndGet();
			return Result.done();
		});
		return ControllerManager.builder(client).cacheOptions(options).controller(definition).build();
	}

	private static void populate(ApiClient client, String namespace, int count) throws Exception {
		CoreV1Api core = new CoreV1Api(client);
		try {
			core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace))).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 409) {
				throw ex;
			}
		}
		byte[] value = "x".repeat(1024).getBytes(StandardCharsets.UTF_8);
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> creates = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String name = "secret-" + i;
				creates.add(
						threads.submit(
								() -> core
									.createNamespacedSecret(namespace,
											new V1Secret().metadata(new V1ObjectMeta().name(name))
												.data(Map.of("value", value)))
									.execute()));
			}
			for (Future<?> create : creates) {
				create.get();
			}
		}
		finally {
			threads.shutdown();
		}
		core.createNamespacedConfigMap(namespace,
				new V1ConfigMap().metadata(new V1ObjectMeta().name("reader")).data(Map.of("secret", "secret-0")))
			.execute();
	}

}
