package dev.kubereconciler.observation;

import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link ApiRequestObservationContext} reads the verb, resource, subresource,
 * namespace and name from a request as the API server's request info does.
 */
class ApiRequestObservationContextTests {

	@ParameterizedTest
	@CsvSource(nullValues = "-", value = {
			"GET, /api/v1/namespaces/ns/configmaps/a, get, configmaps, '', ns, a, get configmaps",
			"GET, /api/v1/namespaces/ns/configmaps, list, configmaps, '', ns, '', list configmaps",
			"GET, /api/v1/namespaces/ns/configmaps?watch=true, watch, configmaps, '', ns, '', watch configmaps",
			"GET, /api/v1/configmaps?limit=500, list, configmaps, '', '', '', list configmaps",
			"POST, /apis/apps/v1/namespaces/ns/deployments, create, deployments, '', ns, '', create deployments",
			"PUT, /apis/sample.dev/v1/namespaces/ns/widgets/w/status, update, widgets, status, ns, w, update widgets/status",
			"PATCH, /apis/apps/v1/namespaces/ns/deployments/d/scale, patch, deployments, scale, ns, d, patch deployments/scale",
			"DELETE, /api/v1/namespaces/ns/pods/p, delete, pods, '', ns, p, delete pods",
			"DELETE, /api/v1/namespaces/ns/pods, deletecollection, pods, '', ns, '', deletecollection pods",
			"GET, /api/v1/namespaces/ns, get, namespaces, '', '', ns, get namespaces",
			"PUT, /api/v1/namespaces/ns/finalize, update, namespaces, finalize, '', ns, update namespaces/finalize",
			"GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/r, get, clusterroles, '', '', r, get clusterroles",
			"GET, /version, get, '', '', '', '', get /version" })
	void readsTheRequestInfo(String method, String path, String verb, String resource, String subresource,
			String namespace, String name, String contextualName) {
		RequestBody body = method.equals("GET") ? null : RequestBody.create("{}", MediaType.get("application/json"));
		ApiRequestObservationContext context = new ApiRequestObservationContext(
				new Request.Builder().url("https://127.0.0.1:6443" + path).method(method, body).build());
		assertThat(context.getVerb()).isEqualTo(verb);
		assertThat(context.getResource()).isEqualTo(resource);
		assertThat(context.getSubresource()).isEqualTo(subresource);
		assertThat(context.getNamespace()).isEqualTo(namespace);
		assertThat(context.getObjectName()).isEqualTo(name);
		assertThat(new DefaultApiRequestObservationConvention().getContextualName(context)).isEqualTo(contextualName);
	}

}
