package dev.kubereconciler.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import okhttp3.Request;
import okhttp3.Response;

import dev.kubereconciler.crd.CrdFiles.Crd;
import dev.kubereconciler.crd.CrdInstaller;

/**
 * The CRDs the test support applied to the shared server in this run, each with the
 * {@code resourceVersion} it had once served, so that the next test class that names the
 * same file applies and waits for nothing: one metadata list of the server's CRDs shows
 * that each is still the object that was served. A CRD that was changed, deleted or never
 * applied from that file is applied and waited for as before.
 */
final class InstalledCrds {

	private static final String PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

	private static final String METADATA_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

	private final Map<String, Served> served = new HashMap<>();

	/**
	 * Apply those of the CRDs that are not served as these files give them, and wait
	 * until they are.
	 * @param client an admin client of the shared server
	 * @param crds the CRDs the test class wants
	 */
	synchronized void install(ApiClient client, List<Crd> crds) {
		if (crds.isEmpty()) {
			return;
		}
		List<Crd> wanted = crds;
		if (!this.served.isEmpty()) {
			Map<String, String> versions = resourceVersions(client);
			wanted = crds.stream().filter((crd) -> !isServed(crd, versions)).toList();
		}
		if (wanted.isEmpty()) {
			return;
		}
		new CrdInstaller(client, KubernetesTestExtension.FIELD_MANAGER).install(wanted);
		Map<String, String> versions = resourceVersions(client);
		for (Crd crd : wanted) {
			String version = versions.get(crd.name());
			if (version != null) {
				this.served.put(crd.name(), new Served(crd.json(), version));
			}
		}
	}

	private boolean isServed(Crd crd, Map<String, String> versions) {
		Served served = this.served.get(crd.name());
		// the same resourceVersion is the same object: nothing changed it since it was
		// served, not even its status
		return served != null && served.json().equals(crd.json())
				&& served.resourceVersion().equals(versions.get(crd.name()));
	}

	private static Map<String, String> resourceVersions(ApiClient client) {
		try {
			// through the client's own request building, so that its authentication
			// applies; metadata only, as a CRD's schema can be large
			Request request = client.buildRequest(null, PATH, "GET", new ArrayList<>(), new ArrayList<>(), null,
					new HashMap<>(Map.of("Accept", METADATA_LIST)), new HashMap<>(), new HashMap<>(),
					new String[] { "BearerToken" }, null);
			try (Response response = client.getHttpClient().newCall(request).execute()) {
				String body = response.body().string();
				if (!response.isSuccessful()) {
					throw new IllegalStateException(
							"Could not list the CustomResourceDefinitions: " + response.code() + " " + body);
				}
				Map<String, String> versions = new HashMap<>();
				JsonElement items = JsonParser.parseString(body).getAsJsonObject().get("items");
				if (items == null || !items.isJsonArray()) {
					return versions;
				}
				for (JsonElement item : items.getAsJsonArray()) {
					JsonObject metadata = item.getAsJsonObject().getAsJsonObject("metadata");
					versions.put(metadata.get("name").getAsString(), metadata.get("resourceVersion").getAsString());
				}
				return versions;
			}
		}
		catch (ApiException ex) {
			throw new IllegalStateException("Could not list the CustomResourceDefinitions", ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Served(String json, String resourceVersion) {
	}

}
