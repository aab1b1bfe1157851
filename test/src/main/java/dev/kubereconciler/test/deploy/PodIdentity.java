package dev.kubereconciler.test.deploy;

import java.util.Map;

/**
 * What the downward API tells a container about its pod.
 *
 * @param name the pod's name, also its host name
 * @param namespace the pod's namespace
 * @param uid the pod's uid
 * @param ip the pod's IP, a loopback address of its own
 * @param serviceAccountName the pod's ServiceAccount
 * @param labels the pod template's labels
 * @param annotations the pod template's annotations
 */
record PodIdentity(String name, String namespace, String uid, String ip, String serviceAccountName,
		Map<String, String> labels, Map<String, String> annotations) {

	String serviceAccountUser() {
		return "system:serviceaccount:" + this.namespace + ":" + this.serviceAccountName;
	}

}
