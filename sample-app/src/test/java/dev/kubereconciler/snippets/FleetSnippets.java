package dev.kubereconciler.snippets;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;

import dev.kubereconciler.cluster.ClusterProfileProvider;
import dev.kubereconciler.cluster.ClusterScope;
import dev.kubereconciler.cluster.KubeconfigClients;
import dev.kubereconciler.cluster.KubeconfigSecretProvider;
import dev.kubereconciler.cluster.WatchedCluster;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.widget.Widget;

/**
 * The fleet shown in {@code docs/multi-cluster.md}: a controller that runs on every
 * engaged cluster, and a manager that finds its clusters through kubeconfig Secrets or
 * the Cluster Inventory API.
 */
class FleetSnippets {

	ControllerDefinition fleetWidgets() {
		return ControllerDefinition.builder(Widget.class)
			.named("fleet-widgets")
			.clusters(ClusterScope.FLEET)
			.owns(V1ConfigMap.class)
			.reconcile((widget, context) -> {
				// the request names the cluster; the context reads and writes there
				String cluster = context.request().cluster();
				V1ConfigMap config = new V1ConfigMap().apiVersion("v1")
					.kind("ConfigMap")
					.metadata(new V1ObjectMeta().namespace(widget.getMetadata().getNamespace())
						.name(widget.getMetadata().getName() + "-config"))
					.putDataItem("cluster", cluster);
				context.setControllerReference(widget, config);
				context.apply(config);
				return Result.done();
			});
	}

	// a Secret of the hub, annotated with the member cluster of the Widget it configures,
	// reconciles that Widget there
	ControllerDefinition hubSecretsToMembers() {
		return ControllerDefinition.builder(Widget.class)
			.named("configured-widgets")
			.clusters(ClusterScope.FLEET)
			.mapsFrom(WatchedCluster.local(), V1Secret.class,
					(secret) -> List.of(new Request(secret.getMetadata().getNamespace(), secret.getMetadata().getName(),
							secret.getMetadata().getAnnotations().getOrDefault("example.com/cluster", ""))))
			.reconcile((widget, context) -> Result.done());
	}

	ControllerManager kubeconfigSecrets(ApiClient hub) {
		return ControllerManager.builder(hub)
			.controller(fleetWidgets())
			.clusterProvider(new KubeconfigSecretProvider(hub, "fleet", KubeconfigSecretProvider.DEFAULT_LABEL_SELECTOR,
					KubeconfigClients.DEFAULT_KEY))
			.build();
	}

	ControllerManager clusterInventory(ApiClient hub) {
		return ControllerManager.builder(hub)
			.controller(fleetWidgets())
			.clusterProvider(new ClusterProfileProvider(hub, "fleet", "widgets-manager"))
			.build();
	}

}
