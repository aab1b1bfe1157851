import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;

/**
 * Shows why the addAfter benchmark reports keys delivered: client-java-extended 25.0.0's
 * {@code DefaultDelayingQueue} hands every delayed add to its waiting loop through a
 * {@code LinkedBlockingQueue} of capacity 1000 with {@code offer()}, so adds that arrive while
 * 1000 are still waiting to be taken are dropped without a trace.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar benchmarks/repro/ClientJavaDrops.java};
 * prints 1000 where 1500 is expected.
 */
public class ClientJavaDrops {

	public static void main(String[] args) throws Exception {
		ExecutorService waitingWorker = Executors.newSingleThreadExecutor();
		CountDownLatch busy = new CountDownLatch(1);
		// the waiting loop starts only once this task ends, as if it were descheduled
		waitingWorker.submit(() -> {
			busy.await();
			return null;
		});
		DefaultRateLimitingQueue<String> queue = new DefaultRateLimitingQueue<>(waitingWorker);
		for (int i = 0; i < 1500; i++) {
			queue.addAfter("key-" + i, Duration.ofMillis(1));
		}
		busy.countDown();
		Thread.sleep(2000);
		System.out.println("1500 distinct keys added with addAfter(1 ms); ready after 2 s: " + queue.length());
		queue.shutDown();
		waitingWorker.shutdownNow();
	}

}
