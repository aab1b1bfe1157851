package it.plain;

import io.kubernetes.client.openapi.models.V1ConfigMap;

public class Plain {

	V1ConfigMap configMap;

}
