package dev.kubereconciler.benchmarks;

import java.util.Map;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;

import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Result;

/**
 * Our {@link ControllerManager} with its defaults: the default limiter, the manager gate
 * open, the default cache transform and lists in pages of 500, unless the system property
 * {@value #PAGE_SIZE_PROPERTY} sets another page size (0 for one unpaged list).
 */
final class OursPeer implements Peer {

	/** The system property that sets the informers' list page size. */
	static final String PAGE_SIZE_PROPERTY = "peer.list-page-size";

	/** The system property that sets the most objects read whole from the watch cache. */
	static final String WATCH_CACHE_LIST_MAX_PROPERTY = "peer.watch-cache-list-max";

	private final ApiClient client;

	private final CacheTransforms transforms;

	private final int listPageSize;

	OursPeer(ApiClient client) {
		this(client, CacheTransforms.defaults());
	}

	OursPeer(ApiClient client, CacheTransforms transforms) {
		this(client, transforms, Integer.getInteger(PAGE_SIZE_PROPERTY, ControllerManager.DEFAULT_LIST_PAGE_SIZE));
	}

	OursPeer(ApiClient client, CacheTransforms transforms, int listPageSize) {
		this.client = client;
		this.transforms = transforms;
		this.listPageSize = listPageSize;
	}

	@Override
	public String name() {
		String name = this.transforms.isStripManagedFields() ? "kube-reconciler"
				: "kube-reconciler, managedFields kept";
		name = this.transforms.isCompact() ? name : name + ", not compacted";
		Integer max = Integer.getInteger(WATCH_CACHE_LIST_MAX_PROPERTY);
		if (max != null) {
			name = name + ", watch-cache list max " + max;
		}
		if (this.listPageSize == ControllerManager.DEFAULT_LIST_PAGE_SIZE) {
			return name;
		}
		return name + ((this.listPageSize == 0) ? ", unpaged list" : ", pages of " + this.listPageSize);
	}

	@Override
	public Running start(String namespace, int workers, Work work) {
		CoreV1Api core = new CoreV1Api(this.client);
		ControllerManager[] manager = new ControllerManager[1];
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named("peer")
			.namespaces(namespace)
			.maxConcurrentReconciles(workers)
			.reconcile((request) -> {
				V1ConfigMap configMap = manager[0].lister(V1ConfigMap.class)
					.namespace(request.namespace())
					.get(request.name());
				if (configMap == null) {
					return Result.done();
				}
				V1ObjectMeta metadata = configMap.getMetadata();
				Map<String, String> annotations = metadata.getAnnotations();
				String observed = (annotations != null) ? annotations.get(Work.ANNOTATION) : null;
				if (work.reconciled(request.name(), metadata.getResourceVersion(), observed)) {
					try {
						PatchUtils.patch(V1ConfigMap.class,
								() -> core
									.patchNamespacedConfigMap(request.name(), namespace,
											new V1Patch(Patches.observed(metadata.getResourceVersion())))
									.buildCall(null),
								V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, this.client);
						work.written(request.name());
					}
					catch (ApiException ex) {
						work.failed(ex);
						throw new IllegalStateException(ex);
					}
				}
				return Result.done();
			});
		manager[0] = ControllerManager.builder(this.client)
			.controller(definition)
			.cacheTransforms(this.transforms)
			.listPageSize(this.listPageSize)
			.watchCacheListMax(
					Integer.getInteger(WATCH_CACHE_LIST_MAX_PROPERTY, ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX))
			.build();
		manager[0].start();
		return manager[0]::stop;
	}

}
