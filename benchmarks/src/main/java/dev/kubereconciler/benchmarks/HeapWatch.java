package dev.kubereconciler.benchmarks;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * The peak of the heap in use over a stretch of time, read two ways that do not depend on
 * when the collector happens to run: a thread that reads the heap in use every
 * millisecond, together with the heap in use just before each collection (which the
 * sampling might miss by up to a millisecond of allocation), and the heap in use just
 * after each collection. The first includes the garbage not yet collected, at most one
 * young generation of it, so a JVM with a small fixed young generation ({@code -Xmn})
 * reads close to what it had to hold; the second includes only what survived a
 * collection, but counts garbage that was promoted and not yet collected by a full
 * collection. The peak of the JDK's direct buffers is sampled too; memory that a library
 * allocates outside them is not seen.
 */
final class HeapWatch implements AutoCloseable {

	private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans()
		.stream()
		.filter((pool) -> pool.getType() == MemoryType.HEAP)
		.toList();

	private final Set<String> heapPoolNames = this.heapPools.stream()
		.map(MemoryPoolMXBean::getName)
		.collect(Collectors.toSet());

	private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
		.stream()
		.filter((pool) -> "direct".equals(pool.getName()))
		.findFirst()
		.orElseThrow();

	private final AtomicLong peak = new AtomicLong();

	private final AtomicLong peakAfterCollection = new AtomicLong();

	private final AtomicLong peakDirect = new AtomicLong();

	private final AtomicInteger collections = new AtomicInteger();

	private final NotificationListener listener = (notification, handback) -> {
		if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
			GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
				.from((CompositeData) notification.getUserData());
			this.peak.accumulateAndGet(heapOf(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
			this.peakAfterCollection.accumulateAndGet(heapOf(info.getGcInfo().getMemoryUsageAfterGc()), Math::max);
			this.collections.incrementAndGet();
		}
	};

	private final Thread sampler;

	private volatile boolean running = true;

	private HeapWatch() {
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			((NotificationEmitter) collector).addNotificationListener(this.listener, null, null);
		}
		this.sampler = Keys.daemonThreads("heap-watch").newThread(() -> {
			while (this.running) {
				sample();
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
		});
		this.sampler.setPriority(Thread.MAX_PRIORITY);
	}

	/**
	 * Start watching, from the heap in use now.
	 * @return the running watch
	 */
	static HeapWatch start() {
		HeapWatch watch = new HeapWatch();
		watch.sample();
		watch.sampler.start();
		return watch;
	}

	private void sample() {
		long used = 0;
		for (MemoryPoolMXBean pool : this.heapPools) {
			used += pool.getUsage().getUsed();
		}
		this.peak.accumulateAndGet(used, Math::max);
		this.peakDirect.accumulateAndGet(this.direct.getMemoryUsed(), Math::max);
	}

	private long heapOf(Map<String, MemoryUsage> pools) {
		long used = 0;
		for (Map.Entry<String, MemoryUsage> pool : pools.entrySet()) {
			if (this.heapPoolNames.contains(pool.getKey())) {
				used += pool.getValue().getUsed();
			}
		}
		return used;
	}

	/**
	 * Read the peaks so far.
	 * @return the peaks
	 */
	Peaks peaks() {
		sample();
		return new Peaks(this.peak.get(), this.peakAfterCollection.get(), this.peakDirect.get(),
				this.collections.get());
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.join();
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			try {
				((NotificationEmitter) collector).removeNotificationListener(this.listener);
			}
			catch (ListenerNotFoundException ex) {
				// not added to this collector
			}
		}
	}

	/**
	 * The peaks of a stretch of time.
	 *
	 * @param heap the most heap in use, sampled or just before a collection
	 * @param afterCollection the most heap in use just after a collection, 0 if none ran
	 * @param direct the most bytes in the JDK's direct buffers
	 * @param collections how many collections ran
	 */
	record Peaks(long heap, long afterCollection, long direct, int collections) {
	}

}
