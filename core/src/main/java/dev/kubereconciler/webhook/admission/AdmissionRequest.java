package dev.kubereconciler.webhook.admission;

import java.util.List;

/**
 * What the API server says about the request a webhook judges, beyond the objects
 * themselves: who asks, for what, and whether it is a dry run.
 *
 * @param uid the request's identifier, echoed in the response
 * @param operation the operation
 * @param group the API group of the object, empty for the core group
 * @param version the API version the object was sent to the webhook in
 * @param kind the kind
 * @param resource the plural resource name
 * @param subResource the subresource, such as {@code status}, or empty
 * @param namespace the namespace, empty for a cluster-scoped object
 * @param name the object's name; empty on a create that lets the server generate it
 * @param userName the name of the user who sent the request
 * @param userGroups the groups of that user
 * @param dryRun whether the request is a dry run: nothing will be stored, so a webhook
 * must have no side effects of its own either
 */
public record AdmissionRequest(String uid, AdmissionOperation operation, String group, String version, String kind,
		String resource, String subResource, String namespace, String name, String userName, List<String> userGroups,
		boolean dryRun) {

	public AdmissionRequest {
		userGroups = List.copyOf(userGroups);
	}

}
