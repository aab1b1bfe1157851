package dev.kubereconciler.snippets;

import java.time.Duration;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;

/**
 * The quick start of the README: a controller that checks that audited ConfigMaps name an
 * owner.
 */
@Component
public class ConfigMapAuditor {

	@Reconciler(name = "configmap-auditor", watches = V1ConfigMap.class, labelSelector = "audit=true")
	public Result reconcile(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
		// a private copy of the cached ConfigMap; not called once it is deleted
		if (configMap.getData() == null || !configMap.getData().containsKey("owner")) {
			context.events().warning(configMap, "NoOwner", "Audit", "the ConfigMap names no owner");
			// counted, not retried
			throw new TerminalReconcileException(context.request() + " names no owner");
		}
		return Result.requeueAfter(Duration.ofHours(1)); // audit again in an hour
	}

}
