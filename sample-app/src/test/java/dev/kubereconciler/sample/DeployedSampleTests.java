package dev.kubereconciler.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.test.AuditEvent;
import dev.kubereconciler.test.KubernetesTestAssets;
import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.certmanager.CertManagerCrds;
import dev.kubereconciler.test.certmanager.CertificateIssuer;
import dev.kubereconciler.test.certmanager.IssuedCertificate;
import dev.kubereconciler.test.deploy.DeployedApplication;
import dev.kubereconciler.test.deploy.Replica;
import dev.kubereconciler.test.deploy.Termination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The sample deployed as a cluster runs it: its manifests generated as the build
 * generates them, with two replicas and leader election on, applied whole with
 * {@code kubectl apply -k} to an API server that judges every request by the generated
 * RBAC, and the Deployment's replicas run by the test module's pod runner. Each replica's
 * {@code controllers} endpoint says whether it leads and what it reconciled; the API
 * server's audit log says that no request of the application's ServiceAccount was
 * refused. Widgets are written through the generated webhook configurations: the API
 * server reaches the webhook Service through the test server's Service network, on a
 * ready replica, over TLS with the certificate from the mounted Secret.
 */
class DeployedSampleTests {

	static final String SERVICE_ACCOUNT = "system:serviceaccount:default:kube-reconciler-sample";

	@TempDir
	static Path work;

	static KubernetesTestServer server;

	@BeforeAll
	static void startServer() {
		server = KubernetesTestServer.start(KubernetesTestAssets.discover());
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void twoReplicasOneLeaderWebhooksThroughTheServiceARenewedCertificateWithoutAFailedWriteHandOverAndDrain()
			throws Exception {
		ApiClient admin = server.apiClient();
		// as -Dkube-reconciler.deployment.replicas=2 and the manifests goal's arguments
		// give them
		Path manifests = SampleDeployment.generate(work.resolve("kubernetes"),
				"--kube-reconciler.deployment.replicas=2", "--kube-reconciler.leader-election.enabled=true");
		CertManagerCrds.install(admin);
		GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets = TestObjects.widgets(admin);
		TestObjects.createNamespace(admin, "mirrored");
		SampleDeployment.apply(KubectlApplyTests.kubectl(), server, manifests);
		// the Issuer is selfSigned, so a renewal is a new CA: with cert-manager's
		// CAInjectorMerging the bundle trusts the old and the new one while the replicas
		// change over, as a cluster must for no write to fail
		CertificateIssuer issuer = new CertificateIssuer(admin).withCaBundlesMerged();
		IssuedCertificate issued = issuer.issue("default", "kube-reconciler-sample-webhook");
		try (DeployedApplication deployed = deployment(manifests).start()) {
			// both pass their readiness probes before anything is written
			assertThat(deployed.readyReplicas()).hasSize(2);
			Duration leaseDuration = setting(deployed, "KUBERECONCILER_LEADERELECTION_LEASEDURATION");
			Duration retryPeriod = setting(deployed, "KUBERECONCILER_LEADERELECTION_RETRYPERIOD");
			await().atMost(leaseDuration.plus(retryPeriod))
				.until(() -> deployed.replicas().stream().filter(DeployedSampleTests::leads).count() == 1);
			Replica leader = deployed.replicas().stream().filter(DeployedSampleTests::leads).findFirst().orElseThrow();
			Replica standby = deployed.replicas()
				.stream()
				.filter((replica) -> replica != leader)
				.findFirst()
				.orElseThrow();

			// exactly one replica reconciles: the standby's controllers wait for the
			// Lease
			mirror(admin, "before");
			assertThat(reconciles(leader)).isPositive();
			assertThat(reconciles(standby)).isZero();

			// the API server calls both webhooks through the generated configurations:
			// the mutating one stores the color in lower case, the validating one refuses
			// a repaint with its own message
			Widget admitted = admitted(widgets, "first", "Blue");
			assertThat(admitted.getSpec().color()).isEqualTo("blue");
			// a patch, as the leader may be writing the widget's finalizer meanwhile
			KubernetesApiResponse<Widget> repaint = widgets.patch("default", "first",
					V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, new V1Patch("{\"spec\":{\"color\":\"red\"}}"));
			assertThat(repaint.isSuccess()).isFalse();
			assertThat(repaint.getStatus().getMessage()).contains("vwidget-v1alpha1.sample.kubereconciler.dev")
				.contains("spec.color cannot change from blue to red");

			// both serve the certificate from the mounted Secret; a renewed one is
			// served while writes go on, and none fails
			assertThat(served(leader, issued)).isEqualTo(issued.certificate());
			try (WidgetWrites writes = new WidgetWrites(widgets)) {
				await().atMost(Duration.ofSeconds(10)).until(() -> writes.admitted() >= 5);
				IssuedCertificate renewed = issuer.renew("default", "kube-reconciler-sample-webhook");
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(200))
					.until(() -> deployed.replicas()
						.stream()
						.allMatch((replica) -> served(replica, issued, renewed).equals(renewed.certificate())));
				int beforeRenewalServed = writes.admitted();
				await().atMost(Duration.ofSeconds(10)).until(() -> writes.admitted() >= beforeRenewalServed + 5);
				assertThat(writes.refusals()).as("writes refused while the certificate was renewed").isEmpty();
			}

			// the leader dies; the standby takes the Lease in time. As in client-go, a
			// candidate counts the lease from when it saw the last renewal (up to one
			// jittered retry period late) and retries every jittered period (factor 1.2):
			// the bound is the lease plus two such periods, plus starting the controllers
			Duration handOver = leaseDuration.plus(retryPeriod.multipliedBy(12).dividedBy(10).multipliedBy(2))
				.plusSeconds(5);
			Instant killed = Instant.now();
			leader.kill();
			await().atMost(handOver).until(() -> leads(standby));
			assertThat(Duration.between(killed, Instant.now())).isLessThan(handOver);
			mirror(admin, "after");
			assertThat(reconciles(standby)).isPositive();
			// the Service routes the webhook calls to the replica left
			assertThat(widgets.create(TestObjects.widget("default", "after", "Green", 5)).isSuccess()).isTrue();

			// SIGTERM drains within the grace period
			Termination termination = standby.stop();
			assertThat(termination.killed()).as("killed after the grace period: %s", termination).isFalse();
			assertThat(termination.drained()).isLessThan(Duration
				.ofSeconds(deployed.deployment().getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()));
		}
		assertThat(server.auditEvents()).as("requests of %s outside the generated RBAC", SERVICE_ACCOUNT)
			.filteredOn((event) -> event.user().equals(SERVICE_ACCOUNT))
			.isNotEmpty()
			.filteredOn(AuditEvent::forbidden)
			.isEmpty();
	}

	@Test
	void theEnvironmentTheGeneratorWroteBeforeTheFieldDefectsFixFailsTheRunNamingWhatDidNotBind() throws IOException {
		Path broken = Files.createDirectories(work.resolve("broken")).resolve("deployment.yaml");
		// the names the generator wrote before the fix: a dash kept as an underscore
		// names a key that binds to nothing, so leader election stayed off
		Files.writeString(broken, Files.readString(Path.of("target", "kubernetes", "deployment.yaml"))
			.replace("KUBERECONCILER_", "KUBE_RECONCILER_"));
		assertThatIllegalStateException().isThrownBy(() -> deployment(broken).start().close())
			.withMessageContaining("KUBE_RECONCILER_LEADERELECTION_ENABLED is read as "
					+ "'kube.reconciler.leaderelection.enabled', which no property names; the property "
					+ "'kube-reconciler.leader-election.enabled' is read from KUBERECONCILER_LEADERELECTION_ENABLED")
			.withMessageContaining("KUBE_RECONCILER_WEBHOOKS_SSLBUNDLE");
	}

	private static DeployedApplication.Builder deployment(Path manifests) {
		return DeployedApplication.builder(server, "default")
			.manifests(manifests)
			.mainClass(SampleDeployment.MAIN_CLASS)
			.classPath(SampleDeployment.runtimeClassPathArgument())
			.directory(work.resolve("pods"))
			// the generated probes' thresholds, checked more often than every 10 s
			.probePeriod(Duration.ofMillis(500))
			.readyTimeout(Duration.ofSeconds(60));
	}

	// the API server sees the webhook configurations' URLs a moment after they are
	// written: until then it refuses the write, as it cannot route a service reference
	private static Widget admitted(GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets, String name,
			String color) {
		AtomicReference<String> refusal = new AtomicReference<>("none");
		try {
			return await().atMost(Duration.ofSeconds(10)).until(() -> {
				KubernetesApiResponse<Widget> created = widgets.create(TestObjects.widget("default", name, color, 10));
				if (!created.isSuccess()) {
					refusal.set(created.getStatus().getMessage());
				}
				return created.isSuccess() ? created.getObject() : null;
			}, Objects::nonNull);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("The webhooks admitted no Widget; the API server's last refusal: " + refusal, ex);
		}
	}

	private static Duration setting(DeployedApplication deployed, String variable) {
		return deployed.deployment()
			.getSpec()
			.getTemplate()
			.getSpec()
			.getContainers()
			.get(0)
			.getEnv()
			.stream()
			.filter((env) -> env.getName().equals(variable))
			.map(V1EnvVar::getValue)
			.map(Duration::parse)
			.findFirst()
			.orElseThrow(() -> new AssertionError("The generated Deployment sets no " + variable));
	}

	// a ConfigMap the mirror controller copies into the mirrored namespace
	private static void mirror(ApiClient admin, String name) throws Exception {
		CoreV1Api core = new CoreV1Api(admin);
		core.createNamespacedConfigMap("default",
				new V1ConfigMap().metadata(new V1ObjectMeta().name(name).putLabelsItem("mirror", "true"))
					.putDataItem("written", name))
			.execute();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> core.listNamespacedConfigMap("mirrored")
				.execute()
				.getItems()
				.stream()
				.anyMatch((copy) -> copy.getMetadata().getName().equals("default." + name)));
	}

	// the certificate the replica's webhook server presents, which one of the CAs must
	// vouch for: a refused handshake fails the test
	private static X509Certificate served(Replica replica, IssuedCertificate... trusted) {
		try {
			KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
			trust.load(null, null);
			for (IssuedCertificate certificate : trusted) {
				for (X509Certificate ca : certificate.caCertificates()) {
					trust.setCertificateEntry(certificate.revision() + "-" + ca.getSerialNumber(), ca);
				}
			}
			TrustManagerFactory trustManagers = TrustManagerFactory
				.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trust);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trustManagers.getTrustManagers(), null);
			try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(replica.podIp(), 9443)) {
				socket.startHandshake();
				return (X509Certificate) socket.getSession().getPeerCertificates()[0];
			}
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("The webhook server of " + replica + " refused a handshake", ex);
		}
	}

	private static boolean leads(Replica replica) {
		return controllers(replica).getAsJsonObject("manager").get("leader").getAsBoolean();
	}

	// every reconcile of every controller, by outcome, as the replica counts them
	private static long reconciles(Replica replica) {
		return controllers(replica).getAsJsonObject("controllers")
			.entrySet()
			.stream()
			.flatMap((controller) -> controller.getValue()
				.getAsJsonObject()
				.getAsJsonObject("reconciles")
				.entrySet()
				.stream())
			.mapToLong((count) -> count.getValue().getAsLong())
			.sum();
	}

	private static JsonObject controllers(Replica replica) {
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://" + replica.podIp() + ":8080/actuator/controllers"))
					.timeout(Duration.ofSeconds(5))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			return JsonParser.parseString(response.body()).getAsJsonObject();
		}
		catch (IOException ex) {
			throw new IllegalStateException("The controllers endpoint of " + replica + " does not answer", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
