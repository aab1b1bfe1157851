package dev.kubereconciler.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kubernetes.client.openapi.JSON;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.KubernetesTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A smoke pass of the webhook latency benchmark on the real test API server, 20 creates
 * per second for 2 seconds in each mode: it completes, every create succeeds, and the
 * webhook judges every create of its round and none of the baseline's; never its speed.
 */
@KubernetesTest
class WebhookLatencyTests {

	KubernetesTestServer server;

	@Test
	void everyCreateSucceedsAndOnlyTheWebhookRoundCallsTheWebhook() throws Exception {
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		PrintStream original = System.out;
		WebhookLatency benchmark = new WebhookLatency(this.server.kubeconfig());
		List<WebhookRound> rounds;
		try {
			System.setOut(new PrintStream(output, true, StandardCharsets.UTF_8));
			rounds = benchmark.run(new WebhookLoad(20, 2, 1, 4096, 1, 8, true));
		}
		finally {
			System.setOut(original);
			benchmark.close();
		}
		original.print(output.toString(StandardCharsets.UTF_8));
		assertThat(rounds).extracting(WebhookRound::webhook).containsExactly(false, true);
		assertThat(rounds).allSatisfy((round) -> {
			assertThat(round.count()).isEqualTo(40);
			assertThat(round.outcome().failures()).isZero();
			assertThat(round.seenByWebhook()).isEqualTo(round.webhook() ? 40 : 0);
			assertThat(round.valid()).isTrue();
		});
		assertThat(rounds.get(1).serverNanos()).hasSizeGreaterThanOrEqualTo(40);
		assertThat(rounds.get(1).serverErrors()).isZero();
		// the webhook's warm-up, right after its server became ready, is reported
		WebhookRound afterReady = benchmark.afterReady();
		assertThat(afterReady).isNotNull();
		assertThat(afterReady.count()).isEqualTo(20);
		assertThat(afterReady.valid()).isTrue();
		assertThat(output.toString(StandardCharsets.UTF_8)).contains("after ready (self-check gate): 0 of 20 creates");
	}

	@Test
	void theDataIsSizedAsJson() {
		assertThat(JSON.getGson().toJson(SettingsValidator.validData(4096))).hasSize(4096);
	}

}
