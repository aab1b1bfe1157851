package dev.kubereconciler.benchmarks;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Duration;
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
import org.jspecify.annotations.Nullable;

/**
 * The peaks of the heap over a stretch of time, read in ways that do not depend on when
 * the collector happens to run.
 *
 * <ul>
 * <li><b>In use</b>: a thread reads the heap in use every millisecond, and each
 * collection reports the heap in use just before it (which the sampling might miss by up
 * to a millisecond of allocation). This includes garbage not yet collected: up to one
 * young generation of it, and what was promoted to the old generation since the last full
 * collection; a JVM with a small fixed young generation ({@code -Xmn}) keeps the first
 * part small.</li>
 * <li><b>Live</b>, when {@link #forcingCollections(Duration)} made the watch: a thread
 * runs a full collection, waits, and runs the next, and each reports the heap in use just
 * after it, which with {@code -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0} is exactly the
 * bytes of live objects at that moment. A peak that lasts less than the interval and a
 * collection can be missed, and the collections slow the program down, so this is a pass
 * of its own, not timed.</li>
 * </ul>
 * The peak of the JDK's direct buffers is sampled too; memory that a library allocates
 * outside them is not seen.
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

	private final AtomicLong peakLive = new AtomicLong();

	private final AtomicInteger fullCollections = new AtomicInteger();

	private final AtomicLong peakDirect = new AtomicLong();

	private final AtomicInteger collections = new AtomicInteger();

	private final NotificationListener listener = (notification, handback) -> {
		if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
			GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
				.from((CompositeData) notification.getUserData());
			this.peak.accumulateAndGet(heapOf(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
			long after = heapOf(info.getGcInfo().getMemoryUsageAfterGc());
			this.peakAfterCollection.accumulateAndGet(after, Math::max);
			this.collections.incrementAndGet();
			if (info.getGcAction().contains("major")) {
				this.peakLive.accumulateAndGet(after, Math::max);
				this.fullCollections.incrementAndGet();
			}
		}
	};

	private final Thread sampler;

	private final @Nullable Thread collector;

	private volatile boolean running = true;

	private HeapWatch(@Nullable Duration collectEvery) {
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
		this.collector = (collectEvery != null) ? Keys.daemonThreads("heap-watch-collector").newThread(() -> {
			while (this.running) {
				System.gc();
				LockSupport.parkNanos(collectEvery.toNanos());
			}
		}) : null;
	}

	/**
	 * Start watching the heap in use, from the heap in use now.
	 * @return the running watch
	 */
	static HeapWatch start() {
		return start(null);
	}

	/**
	 * Start watching the heap in use and, with a full collection every
	 * {@code collectEvery}, the live heap.
	 * @param collectEvery the pause between the end of a full collection and the next
	 * @return the running watch
	 */
	static HeapWatch forcingCollections(Duration collectEvery) {
		return start(collectEvery);
	}

	private static HeapWatch start(@Nullable Duration collectEvery) {
		HeapWatch watch = new HeapWatch(collectEvery);
		watch.sample();
		watch.sampler.start();
		if (watch.collector != null) {
			watch.collector.start();
		}
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
	 * When the watch forces collections, run one more now and count the heap in use right
	 * after it as live, so that the end of a stretch is never missed: the peak live heap
	 * is then at least what is live at the end.
	 */
	void collectNow() {
		if (this.collector != null) {
			System.gc();
			long used = 0;
			for (MemoryPoolMXBean pool : this.heapPools) {
				used += pool.getUsage().getUsed();
			}
			this.peakLive.accumulateAndGet(used, Math::max);
		}
	}

	/**
	 * Read the peaks so far.
	 * @return the peaks
	 */
	Peaks peaks() {
		sample();
		return new Peaks(this.peak.get(), this.peakAfterCollection.get(), this.peakLive.get(), this.peakDirect.get(),
				this.collections.get(), this.fullCollections.get());
	}

	@Override
	public void close() throws InterruptedException {
		this.running = false;
		this.sampler.join();
		if (this.collector != null) {
			this.collector.join();
		}
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
	 * @param live the most heap in use just after a full collection, 0 if none ran
	 * @param direct the most bytes in the JDK's direct buffers
	 * @param collections how many collections ran
	 * @param fullCollections how many of them were full collections
	 */
	record Peaks(long heap, long afterCollection, long live, long direct, int collections, int fullCollections) {
	}

}
