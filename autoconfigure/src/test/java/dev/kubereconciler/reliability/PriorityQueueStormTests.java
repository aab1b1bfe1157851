package dev.kubereconciler.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.queue.QueueObserver;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 8: a restart with thousands of ConfigMaps, 2 workers and a 2 ms reconcile.
 * While the initial list is being worked off, one ConfigMap that was already reconciled
 * is updated. With the priority queue its reconcile starts within 50 ms of the event;
 * with the plain queue it waits behind the backlog.
 */
@KubernetesTest
class PriorityQueueStormTests {

	/**
	 * The number of ConfigMaps; CI creates 2,000, so that the scenario stays under a
	 * minute on a loaded runner. {@code docs/reliability.md} also gives the figures of a
	 * run with 10,000.
	 */
	static final String OBJECTS_PROPERTY = "kube-reconciler.reliability.priority-queue.objects";

	private static final int OBJECTS = Reliability.scaled(Integer.getInteger(OBJECTS_PROPERTY, 2_000));

	private static final int WORKERS = 2;

	private static final long RECONCILE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	private static final Duration LATENCY_BOUND = Duration.ofMillis(50);

	ApiClient client;

	TestNamespace namespace;

	@Test
	void aRealChangeOvertakesTheInitialListOnlyWithThePriorityQueue() throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		List<Reliability.ThrowingRunnable> writers = new ArrayList<>();
		for (int i = 0; i < OBJECTS; i++) {
			String name = "object-" + i;
			writers
				.add(() -> core
					.createNamespacedConfigMap(this.namespace.name(),
							new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(Map.of("v", "0")))
					.execute());
		}
		long createStart = System.nanoTime();
		Reliability.inParallel(16, writers);
		double createSeconds = (System.nanoTime() - createStart) / 1e9;
		Storm priority = storm(core, true, "1");
		Storm plain = storm(core, false, "2");
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("ConfigMaps; workers; reconcile", OBJECTS + "; " + WORKERS + "; 2 ms");
		figures.put("creating them, 16 clients in parallel", String.format("%.1f s", createSeconds));
		figures.put("priority queue: event to reconcile start", priority.latency());
		figures.put("priority queue: keys whose reconcile started between the key's add and its own",
				priority.overtaken);
		figures.put("priority queue: ready keys when the controller started, by priority", priority.startDepth);
		figures.put("plain queue: event to reconcile start", plain.latency());
		figures.put("plain queue: keys whose reconcile started between the key's add and its own", plain.overtaken);
		Reliability.report("8-priority-queue", "8. Priority queue after a restart", figures);
		assertThat(priority.latencyNanos).as("priority queue: event to reconcile start")
			.isLessThan(LATENCY_BOUND.toNanos());
		assertThat(priority.overtaken).as("keys reconciled before the change with the priority queue")
			.isLessThanOrEqualTo(WORKERS);
		assertThat(plain.overtaken).as("keys reconciled before the change with the plain queue")
			.isGreaterThanOrEqualTo(plain.backlog * 9 / 10);
		assertThat(plain.latencyNanos).isGreaterThan(priority.latencyNanos);
	}

	/**
	 * Start a controller on the existing ConfigMaps, update one that was already
	 * reconciled once a tenth of the initial list is done, and measure until that update
	 * is reconciled.
	 */
	private Storm storm(CoreV1Api core, boolean priorityQueue, String value) throws Exception {
		String namespace = this.namespace.name();
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		AtomicInteger reconciles = new AtomicInteger();
		AtomicReference<String> first = new AtomicReference<>();
		AtomicReference<String> target = new AtomicReference<>();
		AtomicLong eventAt = new AtomicLong();
		AtomicLong queuedAt = new AtomicLong();
		AtomicBoolean updating = new AtomicBoolean();
		AtomicInteger reconcilesAtQueued = new AtomicInteger();
		AtomicLong reconciledAt = new AtomicLong();
		AtomicInteger reconcilesAtStart = new AtomicInteger();
		AtomicReference<SharedIndexInformer<V1ConfigMap>> informer = new AtomicReference<>();
		ControllerManager manager = ControllerManager.builder(this.client)
			.informerFactory(factory)
			.priorityQueue(priorityQueue)
			.listener(new ControllerListener() {

				@Override
				public QueueObserver<Request> queueObserver(String controller) {
					return new QueueObserver<>() {

						@Override
						public void added(Request item, Trigger cause, int priority) {
							// the controller's own handler queued the update's key
							if (updating.get() && item.name().equals(target.get())
									&& queuedAt.compareAndSet(0, System.nanoTime())) {
								reconcilesAtQueued.set(reconciles.get());
							}
						}

					};
				}

			})
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("storm")
				.namespaces(namespace)
				.maxConcurrentReconciles(WORKERS)
				.reconcile((request) -> {
					long now = System.nanoTime();
					first.compareAndSet(null, request.name());
					int count = reconciles.incrementAndGet();
					if (request.name().equals(target.get()) && reconciledAt.get() == 0
							&& seesUpdate(informer.get(), namespace + "/" + request.name(), value)) {
						reconciledAt.set(now);
						reconcilesAtStart.set(count - 1);
					}
					// the reconcile's work: 2 ms on this worker, as an API call
					// would take
					LockSupport.parkNanos(RECONCILE_NANOS);
					return Result.done();
				}))
			.build();
		informer.set(factory.getExistingSharedIndexInformer(V1ConfigMap.class));
		informer.get().addEventHandler(new ResourceEventHandler<>() {

			@Override
			public void onAdd(V1ConfigMap object) {
			}

			@Override
			public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
				if (newObject.getMetadata().getName().equals(target.get())
						&& value.equals(newObject.getData().get("v"))) {
					eventAt.compareAndSet(0, System.nanoTime());
				}
			}

			@Override
			public void onDelete(V1ConfigMap object, boolean finalStateUnknown) {
			}

		});
		try {
			manager.start();
			Controller controller = manager.controllers().get("storm");
			Map<Integer, Integer> startDepth = controller.queue().depthByPriority();
			await().atMost(Duration.ofMinutes(2)).until(() -> reconciles.get() >= OBJECTS / 10);
			target.set(first.get());
			int backlog = controller.queue().depth();
			V1ConfigMap configMap = core.readNamespacedConfigMap(target.get(), namespace).execute();
			configMap.setData(Map.of("v", value));
			updating.set(true);
			core.replaceNamespacedConfigMap(target.get(), namespace, configMap).execute();
			await().atMost(Duration.ofSeconds(OBJECTS * RECONCILE_NANOS / WORKERS / 1_000_000_000L + 120))
				.until(() -> reconciledAt.get() != 0 && eventAt.get() != 0 && queuedAt.get() != 0);
			return new Storm(reconciledAt.get() - eventAt.get(), queuedAt.get() - eventAt.get(),
					reconcilesAtStart.get() - reconcilesAtQueued.get(), backlog, startDepth);
		}
		finally {
			manager.stop();
			factory.stopAllRegisteredInformers();
		}
	}

	private static boolean seesUpdate(SharedIndexInformer<V1ConfigMap> informer, String key, String value) {
		V1ConfigMap cached = informer.getIndexer().getByKey(key);
		return cached != null && cached.getData() != null && value.equals(cached.getData().get("v"));
	}

	/**
	 * What one run measured.
	 *
	 * @param latencyNanos from the update's watch event to the start of its reconcile
	 * @param deliveryNanos from the watch event to the controller's handler queueing the
	 * key
	 * @param overtaken reconciles started between that add and the key's reconcile
	 * @param backlog ready keys when the update was made
	 * @param startDepth ready keys by priority when the controller started
	 */
	private record Storm(long latencyNanos, long deliveryNanos, int overtaken, int backlog,
			Map<Integer, Integer> startDepth) {

		String latency() {
			return String.format("%.1f ms (of which %.1f ms until the controller's handler queued the key)",
					this.latencyNanos / 1e6, this.deliveryNanos / 1e6);
		}

	}

}
