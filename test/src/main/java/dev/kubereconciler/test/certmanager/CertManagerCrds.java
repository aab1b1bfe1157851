package dev.kubereconciler.test.certmanager;

import java.util.List;

import io.kubernetes.client.openapi.ApiClient;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;

/**
 * The minimal CRDs of cert-manager's {@code Certificate}, {@code Issuer} and
 * {@code ClusterIssuer} ({@code cert-manager.io/v1}) that {@link CertificateIssuer} needs
 * on a test API server: written for this module, not cert-manager's, with a schema that
 * keeps every field and validates none.
 */
public final class CertManagerCrds {

	/**
	 * Their class path location, for {@code @KubernetesTest(crds = ...)} next to
	 * {@code META-INF/kubernetes/crds/*.yaml}.
	 */
	public static final String LOCATION = "dev/kubereconciler/test/certmanager/crds/*.yaml";

	private CertManagerCrds() {
	}

	/**
	 * Install them with server-side apply and wait until they are served.
	 * @param client an admin client of the server
	 */
	public static void install(ApiClient client) {
		List<CrdFiles.Crd> crds = new CrdFiles(CertManagerCrds.class.getClassLoader()).find(List.of(LOCATION),
				List.of());
		new CrdInstaller(client, "kube-reconciler-test").install(crds);
	}

}
