package dev.kubereconciler.benchmarks;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * Java Operator SDK 5 on fabric8, configured as its documentation shows: an
 * {@link Operator} with a {@link Reconciler} registered for one namespace, its defaults
 * otherwise (retry, rate limiter, informer), and as many reconcile threads as the other
 * peers have workers. ConfigMaps carry no {@code metadata.generation}, so
 * generation-aware event filtering is off.
 */
final class JosdkPeer implements Peer {

	private final Config config;

	JosdkPeer(Config config) {
		this.config = config;
	}

	@Override
	public String name() {
		return "Java Operator SDK";
	}

	@Override
	public Running start(String namespace, int workers, Work work) {
		KubernetesClient client = new KubernetesClientBuilder().withConfig(this.config).build();
		Operator operator = new Operator((overrider) -> overrider.withKubernetesClient(client)
			.withConcurrentReconciliationThreads(workers)
			.withCloseClientOnStop(true));
		operator.register(new WriteThrough(client, work),
				(overrider) -> overrider.settingNamespace(namespace).withGenerationAware(false));
		// returns once the informers have synced and the controller runs
		operator.start();
		return operator::stop;
	}

	/**
	 * The peer's reconciler.
	 */
	static final class WriteThrough implements Reconciler<ConfigMap> {

		private final KubernetesClient client;

		private final Work work;

		WriteThrough(KubernetesClient client, Work work) {
			this.client = client;
			this.work = work;
		}

		@Override
		public UpdateControl<ConfigMap> reconcile(ConfigMap configMap, Context<ConfigMap> context) {
			Map<String, String> annotations = configMap.getMetadata().getAnnotations();
			String observed = (annotations != null) ? annotations.get(Work.ANNOTATION) : null;
			String name = configMap.getMetadata().getName();
			String resourceVersion = configMap.getMetadata().getResourceVersion();
			if (this.work.reconciled(name, resourceVersion, observed)) {
				try {
					this.client.configMaps()
						.inNamespace(configMap.getMetadata().getNamespace())
						.withName(name)
						.patch(PatchContext.of(PatchType.JSON_MERGE), Patches.observed(resourceVersion));
					this.work.written(name);
				}
				catch (RuntimeException ex) {
					this.work.failed(ex);
					throw ex;
				}
			}
			return UpdateControl.noUpdate();
		}

	}

}
