package dev.kubereconciler.benchmarks;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;

/**
 * The physical limit: the same work with no framework at all. A paginated list of the
 * namespace (500 per page, as client-go's reflector pages), or one list from the watch
 * cache ({@code resourceVersion=0}, which the API server answers whole, as client-go's
 * reflector lists first), hands every ConfigMap to a pool of {@code workers} threads,
 * then one raw watch from the list's resourceVersion hands them every added or modified
 * ConfigMap. There is no cache, no queue, no deduplication and no retry: what a framework
 * adds over this is its overhead.
 */
final class BarePeer implements Peer {

	private static final int PAGE = 500;

	private final ApiClient client;

	private final boolean fromWatchCache;

	BarePeer(ApiClient client) {
		this(client, false);
	}

	BarePeer(ApiClient client, boolean fromWatchCache) {
		this.client = client;
		this.fromWatchCache = fromWatchCache;
	}

	@Override
	public String name() {
		return this.fromWatchCache ? "bare client, watch cache" : "bare client";
	}

	@Override
	public Running start(String namespace, int workers, Work work) throws Exception {
		CoreV1Api core = new CoreV1Api(this.client);
		ExecutorService pool = Executors.newFixedThreadPool(workers, Keys.daemonThreads("bare-worker"));
		String resourceVersion = null;
		String next = null;
		do {
			V1ConfigMapList page = this.fromWatchCache
					? core.listNamespacedConfigMap(namespace).resourceVersion("0").execute()
					: core.listNamespacedConfigMap(namespace).limit(PAGE)._continue(next).execute();
			if (resourceVersion == null) {
				resourceVersion = page.getMetadata().getResourceVersion();
			}
			for (V1ConfigMap configMap : page.getItems()) {
				pool.execute(() -> handle(core, namespace, configMap, work));
			}
			next = page.getMetadata().getContinue();
		}
		while (next != null && !next.isEmpty());
		AtomicBoolean running = new AtomicBoolean(true);
		Watch<V1ConfigMap> watch = Watch.createWatch(this.client,
				core.listNamespacedConfigMap(namespace)
					.resourceVersion(resourceVersion)
					.allowWatchBookmarks(false)
					.watch(true)
					.buildCall(null),
				new TypeToken<Watch.Response<V1ConfigMap>>() {
				}.getType());
		Thread watcher = Keys.daemonThreads("bare-watch").newThread(() -> {
			try {
				for (Watch.Response<V1ConfigMap> event : watch) {
					if (!running.get()) {
						return;
					}
					if ("ADDED".equals(event.type) || "MODIFIED".equals(event.type)) {
						pool.execute(() -> handle(core, namespace, event.object, work));
					}
				}
			}
			catch (RuntimeException ex) {
				// the watch is closed on stop
			}
		});
		watcher.start();
		return () -> {
			running.set(false);
			watch.close();
			pool.shutdownNow();
		};
	}

	private void handle(CoreV1Api core, String namespace, V1ConfigMap configMap, Work work) {
		Map<String, String> annotations = configMap.getMetadata().getAnnotations();
		String observed = (annotations != null) ? annotations.get(Work.ANNOTATION) : null;
		String resourceVersion = configMap.getMetadata().getResourceVersion();
		String name = configMap.getMetadata().getName();
		if (work.reconciled(name, resourceVersion, observed)) {
			try {
				PatchUtils.patch(V1ConfigMap.class,
						() -> core
							.patchNamespacedConfigMap(name, namespace, new V1Patch(Patches.observed(resourceVersion)))
							.buildCall(null),
						V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
				work.written(name);
			}
			catch (ApiException ex) {
				work.failed(ex);
			}
		}
	}

}
