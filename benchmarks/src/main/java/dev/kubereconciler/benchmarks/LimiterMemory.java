package dev.kubereconciler.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import io.kubernetes.client.extended.workqueue.ratelimiter.DefaultControllerRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import org.openjdk.jol.info.GraphLayout;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;

/**
 * Measures the heap that a per-item limiter keeps for each failing item, ours side by
 * side with client-java-extended's, excluding the keys themselves.
 *
 * <p>
 * All keys are built first and stay reachable throughout. For each limiter, the heap is
 * measured after forced collections, the limiter is created and {@code when(key)} is
 * called once per key, so that every key is tracked, and the heap is measured again; the
 * difference divided by the number of keys is the overhead per tracked item. Run it with
 * {@code -XX:+UseSerialGC}: its heap occupancy after a full collection is exact to the
 * byte, where G1 counts whole regions for the large hash tables. With {@code --jol}, JOL
 * walks each limiter's object graph minus the keys' as a cross-check.
 *
 * <p>
 * Usage: {@code LimiterMemory [items] [rounds] [--jol]}, by default 1,000,000 items and 3
 * rounds.
 */
public final class LimiterMemory {

	private static final Duration BASE_DELAY = Duration.ofMillis(5);

	private static final Duration MAX_DELAY = Duration.ofSeconds(1000);

	private final int items;

	private final Request[] ours;

	private final io.kubernetes.client.extended.controller.reconciler.Request[] clientJava;

	// the limiter being measured, held in a field so that it is certainly reachable when
	// the heap is read
	private Object measured;

	LimiterMemory(int items) {
		this.items = items;
		this.ours = Keys.ours("", items);
		this.clientJava = Keys.clientJava("", items);
	}

	public static void main(String[] args) throws InterruptedException {
		List<String> arguments = new ArrayList<>(Arrays.asList(args));
		boolean jol = arguments.remove("--jol");
		int items = arguments.isEmpty() ? 1_000_000 : Integer.parseInt(arguments.get(0));
		int rounds = (arguments.size() < 2) ? 3 : Integer.parseInt(arguments.get(1));
		System.out.printf("JVM %s %s, GC %s, max heap %d MiB, %d items, %d rounds%n",
				System.getProperty("java.vm.name"), System.getProperty("java.vm.version"), collectors(),
				Runtime.getRuntime().maxMemory() >> 20, items, rounds);
		LimiterMemory memory = new LimiterMemory(items);
		for (Scenario scenario : memory.scenarios()) {
			double[] perItem = new double[rounds];
			for (int round = 0; round < rounds; round++) {
				perItem[round] = memory.heapBytesPerItem(scenario);
			}
			Arrays.sort(perItem);
			String line = String.format(Locale.ROOT,
					"%-58s heap delta per item: median %6.1f B  (min %6.1f, max %6.1f)", scenario.name(),
					perItem[rounds / 2], perItem[0], perItem[rounds - 1]);
			if (jol) {
				line += String.format(Locale.ROOT, "   JOL: %6.1f B", memory.jolBytesPerItem(scenario));
			}
			System.out.println(line);
		}
	}

	List<Scenario> scenarios() {
		return List.of(new Scenario("kube-reconciler RateLimiters.exponential(5ms, 1000s)", () -> {
			RateLimiter<Request> limiter = RateLimiters.exponential(BASE_DELAY, MAX_DELAY);
			trackAll(limiter);
			return limiter;
		}), new Scenario("kube-reconciler RateLimiters.controllerDefault()", () -> {
			RateLimiter<Request> limiter = RateLimiters.controllerDefault();
			trackAll(limiter);
			return limiter;
		}), new Scenario("client-java ItemExponentialFailureRateLimiter(5ms, 1000s)", () -> {
			ItemExponentialFailureRateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> limiter = new ItemExponentialFailureRateLimiter<>(
					BASE_DELAY, MAX_DELAY);
			for (io.kubernetes.client.extended.controller.reconciler.Request key : this.clientJava) {
				limiter.when(key);
			}
			return limiter;
		}), new Scenario("client-java DefaultControllerRateLimiter", () -> {
			DefaultControllerRateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> limiter = new DefaultControllerRateLimiter<>();
			for (io.kubernetes.client.extended.controller.reconciler.Request key : this.clientJava) {
				limiter.when(key);
			}
			return limiter;
		}));
	}

	private void trackAll(RateLimiter<Request> limiter) {
		for (Request key : this.ours) {
			limiter.when(key);
		}
	}

	/**
	 * Build the scenario's limiter and return the heap it added, per item.
	 * @param scenario the scenario
	 * @return bytes per tracked item
	 */
	double heapBytesPerItem(Scenario scenario) throws InterruptedException {
		long before = usedAfterCollections();
		// built on a thread of its own: once that thread has ended, no stale stack slot
		// can keep a limiter alive into the next measurement
		Thread builder = new Thread(() -> this.measured = scenario.build().get());
		builder.start();
		builder.join();
		long after = usedAfterCollections();
		this.measured = null;
		return (double) (after - before) / this.items;
	}

	/**
	 * Build the scenario's limiter and return the size of its object graph, less the
	 * keys, per item.
	 * @param scenario the scenario
	 * @return bytes per tracked item
	 */
	double jolBytesPerItem(Scenario scenario) {
		Object limiter = scenario.build().get();
		Object keys = scenario.name().startsWith("client-java") ? this.clientJava : this.ours;
		long size = GraphLayout.parseInstance(limiter).subtract(GraphLayout.parseInstance(keys)).totalSize();
		return (double) size / this.items;
	}

	static long usedAfterCollections() {
		long previous = -1;
		long used = 0;
		int stable = 0;
		// collect until the reading has not changed three times in a row: a limiter that
		// was just released can survive a couple of full collections before it is freed
		for (int round = 0; round < 20 && stable < 3; round++) {
			System.gc();
			used = heapUsed();
			stable = (used == previous) ? stable + 1 : 0;
			previous = used;
		}
		return used;
	}

	private static long heapUsed() {
		long used = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP) {
				used += pool.getUsage().getUsed();
			}
		}
		return used;
	}

	private static String collectors() {
		return String.join("+",
				ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList());
	}

	/**
	 * One limiter to measure.
	 *
	 * @param name what is measured
	 * @param build creates the limiter and tracks every key in it
	 */
	record Scenario(String name, Supplier<Object> build) {

	}

}
