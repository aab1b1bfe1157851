package dev.kubereconciler.benchmarks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.webhook.server.SelfSignedCertificate;
import dev.kubereconciler.webhook.server.WebhookSelfCheck;
import dev.kubereconciler.crd.WebhookClientConfig;
import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.registration.WebhookRegistration;
import dev.kubereconciler.webhook.server.WebhookServer;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Measures what a validating admission webhook adds to a create through a real API
 * server: ConfigMaps of a given size created at a fixed rate, with our
 * {@link WebhookServer} registered as their validating webhook and, in alternate rounds,
 * with no webhook registered at all.
 *
 * <p>
 * The webhook server runs in this JVM on {@code 127.0.0.1}, with a self-signed
 * certificate, and serves a {@link SettingsValidator} of ConfigMaps; it is registered by
 * {@link WebhookRegistration} with {@code failurePolicy: Fail} for the benchmark's
 * namespace only, chosen by a label. Creates are sent in an open loop ({@link OpenLoop})
 * from a pool of client threads, and each is timed from the moment the schedule said to
 * send it to its answer, so that the latency covers the client, the API server, the
 * webhook call (TLS, the server, the validator), etcd and the answer back. The first
 * second of each round is not counted. Rounds alternate: without the webhook, with it,
 * and so on; each starts with probe creates until the API server has picked up the
 * registration or its removal, and ends by deleting the round's ConfigMaps.
 *
 * <p>
 * The warm-up comes first and is reported on its own: the webhook server starts, becomes
 * ready as an application's replica does, once it has served its HTTPS self-check
 * ({@link WebhookSelfCheck}, the gate of the {@code webhooks} readiness indicator), and
 * is registered; the creates of the first {@code warmup} seconds after that are what a
 * replica meets right after it becomes ready, its TLS stack barely used. With
 * {@code selfcheck 0} the server is registered without the gate, as before it existed.
 *
 * <p>
 * Usage: {@code WebhookLatency KUBECONFIG [rate R] [seconds S] [rounds K] [size B]
 * [warmup W] [clients C] [selfcheck 0|1]}, by default 200/s for 30 s, 3 rounds of each,
 * 4,096 bytes of data as JSON, 5 s of warm-up in each mode (the webhook's reported), 64
 * client threads, and the self-check gate. {@code benchmarks/webhook.sh} starts a
 * throwaway API server and runs it. The process exits with status 1 if a create failed,
 * in the warm-up after readiness too, or the webhook missed one.
 */
public final class WebhookLatency {

	/** The namespace label the webhook's {@code namespaceSelector} matches. */
	static final String NAMESPACE_LABEL = "kube-reconciler.dev/webhook-latency";

	/** How long one self-check may take; the first pays for the cold TLS stack. */
	private static final Duration SELF_CHECK_TIMEOUT = Duration.ofSeconds(5);

	/** The target of issue 28: validating webhook p99 at 200/s with 4 KiB objects. */
	static final double TARGET_P99_MILLIS = 20;

	private final String namespace = "webhook-latency-" + System.currentTimeMillis();

	private final CoreV1Api core;

	// no read timeout: deleting a round's thousands of ConfigMaps may take a while
	private final CoreV1Api cleanup;

	private final WebhookRegistration registration;

	private final SettingsValidator validator = new SettingsValidator();

	private final ServerTimes serverTimes = new ServerTimes();

	private final SelfSignedCertificate certificate = SelfSignedCertificate.generate();

	private final Webhooks webhooks = Webhooks.builder().validator(V1ConfigMap.class, this.validator).build();

	private final WebhookServer server;

	private Map<String, String> data = Map.of();

	private @Nullable WebhookSwitch webhook;

	private int loads;

	private @Nullable WebhookRound afterReady;

	WebhookLatency(Path kubeconfig) throws IOException {
		ApiClient writer = Config.fromConfig(kubeconfig.toString());
		// a slow answer is a latency to report, not a failure
		writer.setReadTimeout((int) TimeUnit.SECONDS.toMillis(60));
		this.core = new CoreV1Api(writer);
		ApiClient admin = ControllerPeers.informerClient(kubeconfig);
		this.cleanup = new CoreV1Api(admin);
		this.registration = new WebhookRegistration(admin);
		this.server = WebhookServer.builder(this.certificate.sslContext())
			.address(new InetSocketAddress(InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 }), 0))
			.endpoints(this.webhooks.endpoints())
			.listener(this.serverTimes)
			.threads(WebhookServer.DEFAULT_THREADS, Keys.daemonThreads("webhook"))
			.build();
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("Usage: WebhookLatency KUBECONFIG [rate R] [seconds S] [rounds K] [size B] "
					+ "[warmup W] [clients C] [selfcheck 0|1]");
			System.exit(2);
		}
		WebhookLoad settings = WebhookLoad.parse(Arrays.copyOfRange(args, 1, args.length));
		WebhookLatency benchmark = new WebhookLatency(Path.of(args[0]));
		boolean valid;
		try {
			valid = benchmark.run(settings).stream().allMatch(WebhookRound::valid);
			WebhookRound afterReady = benchmark.afterReady();
			valid = valid && (afterReady == null || afterReady.valid());
		}
		finally {
			benchmark.close();
		}
		// client-java leaves non-daemon threads behind
		System.exit(valid ? 0 : 1);
	}

	List<WebhookRound> run(WebhookLoad settings) throws Exception {
		this.data = SettingsValidator.validData(settings.size());
		this.cleanup
			.createNamespace(new V1Namespace()
				.metadata(new V1ObjectMeta().name(this.namespace).labels(Map.of(NAMESPACE_LABEL, this.namespace))))
			.execute();
		this.server.start();
		long started = System.nanoTime();
		if (settings.selfCheck()) {
			awaitSelfCheck();
		}
		String readyAfter = String.format(Locale.ROOT, "%.1f ms", (System.nanoTime() - started) / 1e6);
		String url = "https://127.0.0.1:" + this.server.port();
		this.webhook = new WebhookSwitch(this.registration, this.webhooks,
				new WebhookConfigurations(this.namespace, WebhookClientConfig.url(url, this.certificate.caBundle()),
						"Fail", Duration.ofSeconds(10),
						new V1LabelSelector().matchLabels(Map.of(NAMESPACE_LABEL, this.namespace)),
						Map.of("app.kubernetes.io/managed-by", "kube-reconciler-benchmarks")),
				this.validator, this::create);
		System.out.printf(Locale.ROOT, "%s: webhook latency; %s%n", Instant.now(), settings);
		System.out.println(settings.selfCheck()
				? "webhook server ready (self-check served over TLS) " + readyAfter
						+ " after it started listening, then registered"
				: "webhook server registered without the self-check gate");
		System.out.printf(Locale.ROOT,
				"ConfigMaps with %d bytes of data as JSON (keys %s), %d bytes as sent; webhook %s%s with "
						+ "failurePolicy Fail for namespace %s; %d webhook server threads; "
						+ "sun.net.httpserver.nodelay=%s%n",
				JSON.getGson().toJson(this.data).length(), this.data.keySet(),
				JSON.getGson().toJson(configMap("cm-0")).length(), url,
				Webhooks.validatingPath(ResourceType.of(V1ConfigMap.class)), this.namespace,
				WebhookServer.DEFAULT_THREADS,
				// whether the JDK's server sets TCP_NODELAY: without it, Nagle's
				// algorithm holds the answer's body until the API server acknowledges
				// its headers, which the API server may delay by up to 40 ms
				Boolean.getBoolean("sun.net.httpserver.nodelay"));
		ExecutorService clients = Executors.newFixedThreadPool(settings.clients(), Keys.daemonThreads("client"));
		try {
			if (settings.warmUp() > 0) {
				// the webhook's first: its server's first seconds after it became ready
				System.out.println("warm-up: the webhook's first " + settings.warmUp()
						+ " s after the replica became ready (reported), then the baseline's (not reported)");
				WebhookRound afterReady = load(0, true, settings.rate(), settings.warmUp(), clients);
				this.afterReady = afterReady;
				System.out.printf(Locale.ROOT,
						"after ready (%s): %d of %d creates failed in the first %d s at %d/s; p50 %.2f ms   "
								+ "p99 %.2f ms   max %.2f ms; webhook server's own p50 %.2f ms   max %.2f ms%n",
						settings.selfCheck() ? "self-check gate" : "no gate", afterReady.outcome().failures(),
						afterReady.count(), settings.warmUp(), settings.rate(), afterReady.latency(0.50),
						afterReady.latency(0.99), afterReady.latency(1.0), afterReady.server(0.50),
						afterReady.server(1.0));
				load(0, false, settings.rate(), settings.warmUp(), clients);
			}
			List<WebhookRound> rounds = new ArrayList<>();
			for (int round = 1; round <= settings.rounds(); round++) {
				rounds.add(load(round, false, settings.rate(), settings.seconds(), clients));
				rounds.add(load(round, true, settings.rate(), settings.seconds(), clients));
			}
			WebhookRound.summarize(rounds, settings);
			return rounds;
		}
		finally {
			clients.shutdownNow();
		}
	}

	/**
	 * The creates of the warm-up with the webhook, right after its server became ready,
	 * or {@code null} without a warm-up.
	 */
	@Nullable WebhookRound afterReady() {
		return this.afterReady;
	}

	/**
	 * Wait until the webhook server has served its HTTPS self-check, verified against the
	 * CA bundle the API server is given, as the application's readiness does.
	 */
	private void awaitSelfCheck() throws InterruptedException {
		WebhookSelfCheck check = WebhookSelfCheck.trusting(this.certificate.caBundle());
		for (int attempt = 1; !check.passes(this.server.port(), SELF_CHECK_TIMEOUT); attempt++) {
			if (attempt == 10) {
				throw new IllegalStateException("The webhook server did not serve its self-check in 10 attempts");
			}
		}
	}

	private WebhookRound load(int round, boolean webhook, int rate, int seconds, ExecutorService clients)
			throws Exception {
		String loadBefore = loadAverage();
		WebhookSwitch webhookSwitch = Objects.requireNonNull(this.webhook, "run() registers the webhook");
		int probes = webhook ? webhookSwitch.on() : webhookSwitch.off();
		// the last probe's call may not have been counted yet
		awaitQuietServer();
		String mode = webhook ? "webhook" : "baseline";
		System.out.printf(Locale.ROOT, "== %s, %s: load before %s; webhook %s (%d probe create(s))%n",
				(round > 0) ? "round " + round : "warm-up", mode, loadBefore,
				webhook ? "registered and called" : "not registered, not called", probes);
		String prefix = "l" + (this.loads++) + "-";
		int count = rate * seconds;
		this.validator.forget();
		this.serverTimes.restart(2 * count + 1024);
		System.gc();
		OpenLoop.Outcome outcome = OpenLoop.run(count, rate, clients, (index) -> create(prefix + index));
		awaitQuietServer();
		int seen = 0;
		for (int i = 0; i < count; i++) {
			seen += this.validator.saw(prefix + i) ? 1 : 0;
		}
		// a warm-up's first second is what it measures
		int skipped = (round > 0) ? Math.min(rate, count / 10) : 0;
		WebhookRound result = new WebhookRound(round, webhook, rate, seconds, outcome, skipped, seen,
				webhook ? this.serverTimes.sorted() : new long[0], this.serverTimes.errors());
		result.print();
		System.out.printf(Locale.ROOT, "   load after %s%n", loadAverage());
		long start = System.nanoTime();
		this.cleanup.deleteCollectionNamespacedConfigMap(this.namespace).execute();
		System.out.printf(Locale.ROOT, "   deleted the ConfigMaps in %.1f s%n", (System.nanoTime() - start) / 1e9);
		return result;
	}

	/**
	 * Wait until the webhook server has answered no call for half a second. Its listener
	 * hears of a call after the answer is written, so the API server may have answered
	 * the client first; and a call the API server gave up on (after 10 s) may still wait
	 * in the server: it belongs to this round, and must not take time from the next.
	 */
	private void awaitQuietServer() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		int last = this.serverTimes.calls();
		long lastChange = System.nanoTime();
		while (System.nanoTime() - lastChange < TimeUnit.MILLISECONDS.toNanos(500)
				&& System.nanoTime() - deadline < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			int calls = this.serverTimes.calls();
			if (calls != last) {
				last = calls;
				lastChange = System.nanoTime();
			}
		}
	}

	private void create(String name) throws ApiException {
		this.core.createNamespacedConfigMap(this.namespace, configMap(name)).execute();
	}

	private V1ConfigMap configMap(String name) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(this.data);
	}

	static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
			return String.join(" ", Arrays.asList(fields).subList(0, 3));
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	/**
	 * Withdraw the webhook, stop its server and delete the namespace.
	 */
	void close() {
		WebhookSwitch webhook = this.webhook;
		try {
			if (webhook != null) {
				webhook.close();
			}
		}
		catch (RuntimeException ex) {
			System.out.println("could not delete the webhook configurations " + this.namespace + ": " + ex);
		}
		this.server.stop(Duration.ZERO);
		try {
			this.cleanup.deleteCollectionNamespacedConfigMap(this.namespace).execute();
			this.cleanup.deleteNamespace(this.namespace).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				System.out.println("could not delete namespace " + this.namespace + ": " + ex.getCode());
			}
		}
	}

}
