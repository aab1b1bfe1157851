package dev.kubereconciler.controller;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import dev.kubereconciler.model.ResourceCoordinates;

/**
 * A custom resource whose CRD no test installs: the API server never serves it.
 */
@ResourceCoordinates(group = Thingamajig.GROUP, version = "v1", kind = "Thingamajig", plural = "thingamajigs")
public class Thingamajig extends TestResource<V1ObjectMeta> implements KubernetesObject {

	static final String GROUP = "unserved.test.kubereconciler.dev";

	Thingamajig() {
		super(GROUP + "/v1", "Thingamajig");
	}

}
