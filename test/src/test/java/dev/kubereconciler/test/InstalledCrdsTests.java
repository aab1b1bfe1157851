package dev.kubereconciler.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.options.ListOptions;
import okhttp3.Request;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdFiles.Crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a CRD is applied and waited for once per server and file: a later class that
 * wants it as it is served only lists the CRDs' metadata, and one deleted or changed
 * since is applied and served again.
 */
@KubernetesTest
class InstalledCrdsTests {

	private static final String COGS = "cogs.crds.test.kubereconciler.dev";

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private final InstalledCrds installed = new InstalledCrds();

	private List<Crd> cogs;

	private ApiClient recorded;

	@BeforeEach
	void recordRequests(KubernetesTestServer server) {
		this.cogs = new CrdFiles(getClass().getClassLoader())
			.find(List.of("dev/kubereconciler/test/installed/cogs.yaml"), List.of());
		this.recorded = server.apiClient();
		this.recorded.setHttpClient(this.recorded.getHttpClient().newBuilder().addInterceptor((chain) -> {
			Request request = chain.request();
			this.requests.add(request.method() + " " + request.url().encodedPath());
			return chain.proceed(request);
		}).build());
	}

	@Test
	void aCrdStillServedAsItsFileGivesItIsOnlyListed() {
		this.installed.install(this.recorded, this.cogs);
		assertThat(this.requests).contains("PATCH /apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + COGS);
		this.requests.clear();

		this.installed.install(this.recorded, this.cogs);
		assertThat(this.requests).containsExactly("GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions");
	}

	@Test
	void aCrdDeletedSinceIsAppliedAndServedAgain(ApiClient client) {
		this.installed.install(this.recorded, this.cogs);
		DynamicKubernetesApi crds = crds(client);
		assertThat(crds.delete(COGS).isSuccess()).isTrue();
		await().atMost(Duration.ofSeconds(30)).until(() -> crds.get(COGS).getHttpStatusCode() == 404);
		this.requests.clear();

		this.installed.install(this.recorded, this.cogs);
		assertThat(this.requests).contains("PATCH /apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + COGS);
		assertThat(
				new DynamicKubernetesApi("crds.test.kubereconciler.dev", "v1", "cogs", client).list(new ListOptions())
					.getHttpStatusCode())
			.isEqualTo(200);
	}

	@Test
	void aCrdChangedSinceIsAppliedAgain(ApiClient client) {
		this.installed.install(this.recorded, this.cogs);
		assertThat(crds(client)
			.patch(COGS, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"metadata\":{\"labels\":{\"changed\":\"by-a-test\"}}}"))
			.isSuccess()).isTrue();
		this.requests.clear();

		this.installed.install(this.recorded, this.cogs);
		assertThat(this.requests).contains("PATCH /apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + COGS);
	}

	private static DynamicKubernetesApi crds(ApiClient client) {
		return new DynamicKubernetesApi("apiextensions.k8s.io", "v1", "customresourcedefinitions", client);
	}

}
