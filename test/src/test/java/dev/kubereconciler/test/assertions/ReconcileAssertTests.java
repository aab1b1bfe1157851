package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static dev.kubereconciler.test.assertions.KubernetesAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The assertions on reconciles against a real manager and the real test API server: a
 * settled controller reconciles a key once and then stays quiet; one that requeues itself
 * in a hot loop fails both, saying what it did.
 */
@KubernetesTest
class ReconcileAssertTests {

	ApiClient client;

	TestNamespace namespace;

	private final ReconcileRecorder recorder = new ReconcileRecorder();

	private ControllerManager manager;

	@BeforeEach
	void startControllers() {
		this.manager = ControllerManager.builder(this.client)
			.listener(this.recorder)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("settled")
				.namespaces(this.namespace.name())
				.labelSelector("mode=settled")
				.reconcile((configMap, context) -> Result.done()))
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("looping")
				.namespaces(this.namespace.name())
				.labelSelector("mode=looping")
				// requeues itself at once, forever: a hot loop
				.reconcile((configMap, context) -> Result.requeueAfter(Duration.ofMillis(50))))
			.build();
		this.manager.start();
	}

	@AfterEach
	void stopControllers() {
		this.manager.stop();
	}

	@Test
	void settledControllerReconcilesItsKeyOnceAndThenStaysQuiet() throws ApiException {
		create("calm", "settled");
		Request calm = new Request(this.namespace.name(), "calm");
		assertThat(this.recorder, "settled", calm).eventually()
			.hasReconciled(1)
			.forEach((reconcile) -> assertThat(reconcile.outcome()).isEqualTo(ReconcileOutcome.SUCCESS));
		assertThat(this.recorder, "settled", calm).isQuietFor(Duration.ofMillis(500));
		assertThat(this.recorder, "settled", calm).hasReconciled(1);
	}

	@Test
	void hotLoopFailsTheQuietWindowWithWhatItDid() throws ApiException {
		create("busy", "looping");
		Request busy = new Request(this.namespace.name(), "busy");
		awaitFirstReconcile("looping", busy);
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.recorder, "looping", busy).isQuietFor(Duration.ofSeconds(5)))
			.withMessageMatching("Expected controller 'looping' to leave " + busy
					+ " alone for 5000 ms, but it started \\d+ more reconciles? of it \\(a hot loop\\?\\); "
					+ "finished since: \\[requeue_after.*\\]\\.");
	}

	@Test
	void moreReconcilesThanExpectedFailWithoutWaitingForTheTimeout() throws ApiException {
		create("many", "looping");
		Request many = new Request(this.namespace.name(), "many");
		awaitFirstReconcile("looping", many);
		// the timeout is long, and the message has no "After ... ms": the failure
		// comes at the first check that finds more
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(
					() -> assertThat(this.recorder, "looping", many).eventually(Duration.ofMinutes(1)).hasReconciled(1))
			.withMessageMatching("(?s)Expected controller 'looping' to have reconciled " + many
					+ " once, but it reconciled it \\d+ times: \\[requeue_after, requeue_after.*");
	}

	@Test
	void aKeyNeverReconciledNamesTheKeysTheControllerDidReconcile() throws ApiException {
		create("real", "settled");
		assertThat(this.recorder, "settled", new Request(this.namespace.name(), "real")).eventually().hasReconciled(1);
		Request typo = new Request(this.namespace.name(), "reel");
		assertThatExceptionOfType(AssertionFailedError.class).isThrownBy(
				() -> assertThat(this.recorder, "settled", typo).eventually(Duration.ofMillis(300)).hasReconciled(1))
			.withMessage("After 300 ms: Expected controller 'settled' to have reconciled " + typo
					+ " once, but it reconciled it 0 times: [].\nController 'settled' reconciled (key=times): {"
					+ this.namespace.name() + "/real=1}");
		assertThatExceptionOfType(AssertionFailedError.class)
			.isThrownBy(() -> assertThat(this.recorder, "setled", typo).hasReconciled(1))
			.withMessageMatching(
					"(?s).*\nController 'setled' reconciled nothing; controllers heard: \\[.*settled.*\\]");
	}

	// not hasReconciled(1): a hot loop may be past one by the first check
	private void awaitFirstReconcile(String controller, Request request) {
		await().atMost(KubernetesAssertions.DEFAULT_TIMEOUT)
			.until(() -> !this.recorder.reconciles(controller, request).isEmpty());
	}

	private void create(String name, String mode) throws ApiException {
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(this.namespace.name(),
					new V1ConfigMap().metadata(new V1ObjectMeta().name(name).labels(Map.of("mode", mode))))
			.execute();
	}

}
