package dev.kubereconciler.snippets;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;

/**
 * The quick start of the README: a controller that checks that audited ConfigMaps name an
 * owner.
 */
@Component
public class ConfigMapAuditor {

	private final CoreV1Api core;

	public ConfigMapAuditor(ApiClient apiClient) {
		this.core = new CoreV1Api(apiClient);
	}

	@Reconciler(name = "configmap-auditor", watches = V1ConfigMap.class, labelSelector = "audit=true")
	public Result reconcile(Request request) throws ApiException {
		V1ConfigMap configMap;
		try {
			configMap = this.core.readNamespacedConfigMap(request.name(), request.namespace()).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return Result.done(); // deleted: nothing left to audit
			}
			throw ex; // retried with backoff
		}
		if (configMap.getData() == null || !configMap.getData().containsKey("owner")) {
			throw new TerminalReconcileException(request + " names no owner"); // counted, not retried
		}
		return Result.requeueAfter(Duration.ofHours(1)); // audit again in an hour
	}

}
