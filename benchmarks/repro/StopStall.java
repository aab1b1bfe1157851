import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerManager;
import dev.kubereconciler.ratelimit.DelayScheduler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

/**
 * Reproduces an engine bug: {@code Controller.stop()} waits out the whole abandon grace (5 s)
 * whenever a reconcile is in flight as it starts.
 *
 * <p>{@code stop()} holds the controller's lifecycle monitor while it drains the queue and joins
 * the workers, and a worker enters that same monitor ({@code awaitUnpaused}) before each
 * {@code get()}. The worker that finishes the in-flight reconcile blocks there, uninterruptibly,
 * until the join gives up. Run: {@code java -cp benchmarks/target/benchmarks.jar
 * benchmarks/repro/StopStall.java}; prints about 5100 ms, where about 100 ms is expected.
 */
public class StopStall {

	public static void main(String[] args) throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class).named("stall")
			.reconcile((request) -> {
				started.countDown();
				release.await();
				return Result.done();
			});
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
		Controller controller = ControllerManager.builder(new ApiClient().setReadTimeout(0))
			.clock(DelayScheduler.of(executor))
			.controller(definition)
			.build()
			.controller(definition.name());
		controller.enqueue(new Request("default", "one"));
		controller.start();
		started.await();
		// the reconcile finishes 100 ms into stop()'s drain
		executor.schedule(release::countDown, 100, TimeUnit.MILLISECONDS);
		long start = System.nanoTime();
		boolean drained = controller.stop(Duration.ofSeconds(30));
		System.out.printf("stop() returned %s after %d ms%n", drained, (System.nanoTime() - start) / 1_000_000);
		executor.shutdownNow();
	}

}
