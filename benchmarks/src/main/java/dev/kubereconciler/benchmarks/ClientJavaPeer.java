package dev.kubereconciler.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.ratelimiter.BucketRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.kubernetes.client.extended.workqueue.ratelimiter.MaxOfRateLimiter;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

/**
 * client-java's {@code DefaultController} from {@code ControllerBuilder}, on a queue
 * whose limiter is client-go's default with the bucket corrected to 10 per second and a
 * burst of 100 (client-java's own default swaps the two).
 */
final class ClientJavaPeer implements Peer {

	private final ApiClient client;

	ClientJavaPeer(ApiClient client) {
		this.client = client;
	}

	@Override
	public String name() {
		return "client-java DefaultController";
	}

	@Override
	public Running start(String namespace, int workers, Work work) {
		SharedInformerFactory factory = new SharedInformerFactory(this.client);
		SharedIndexInformer<V1ConfigMap> informer = factory
			.sharedIndexInformerFor(new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1",
					"configmaps", this.client), V1ConfigMap.class, 0, namespace);
		CoreV1Api core = new CoreV1Api(this.client);
		ExecutorService waiting = Executors.newSingleThreadExecutor(Keys.daemonThreads("client-java-waiting"));
		DefaultRateLimitingQueue<Request> queue = new DefaultRateLimitingQueue<>(waiting,
				new MaxOfRateLimiter<>(
						new ItemExponentialFailureRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)),
						new BucketRateLimiter<>(100, 10, Duration.ofSeconds(1))));
		Controller controller = ControllerBuilder.defaultBuilder(factory)
			.withName("peer-client-java")
			.withWorkQueue(queue)
			.withWorkerCount(workers)
			.withReadyFunc(informer::hasSynced)
			.watch((q) -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, q).build())
			.withReconciler((request) -> {
				V1ConfigMap configMap = informer.getIndexer()
					.getByKey(request.getNamespace() + "/" + request.getName());
				if (configMap == null) {
					return new Result(false);
				}
				Map<String, String> annotations = configMap.getMetadata().getAnnotations();
				String observed = (annotations != null) ? annotations.get(Work.ANNOTATION) : null;
				String resourceVersion = configMap.getMetadata().getResourceVersion();
				if (work.reconciled(request.getName(), resourceVersion, observed)) {
					try {
						PatchUtils.patch(V1ConfigMap.class,
								() -> core
									.patchNamespacedConfigMap(request.getName(), namespace,
											new V1Patch(Patches.observed(resourceVersion)))
									.buildCall(null),
								V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
						work.written(request.getName());
					}
					catch (ApiException ex) {
						work.failed(ex);
						return new Result(true);
					}
				}
				return new Result(false);
			})
			.build();
		factory.startAllRegisteredInformers();
		Thread runner = Keys.daemonThreads("client-java-controller").newThread(controller);
		runner.start();
		long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
		while (!informer.hasSynced()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("client-java's informer did not sync within 5 minutes");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		return () -> {
			controller.shutdown();
			factory.stopAllRegisteredInformers(true);
			waiting.shutdownNow();
		};
	}

}
