package dev.kubereconciler.actuate;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import dev.kubereconciler.actuate.ControllerActivity.ReconcileCounts;
import dev.kubereconciler.actuate.ControllerActivity.SourceStatistics;
import dev.kubereconciler.actuate.ControllersEndpoint.ControllerDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.ControllerDetails;
import dev.kubereconciler.actuate.ControllersEndpoint.ControllersDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.DecisionDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.ItemDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.SimulationDescriptor;
import dev.kubereconciler.actuate.ControllersEndpoint.SourceDescriptor;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerDefinitionBuilder;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.ratelimit.DelaySource;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.with;

/**
 * Tests for {@link ControllersEndpoint}, built with {@code new} around a manager whose
 * controllers run on a manual clock, so that counts and delays are exact.
 */
class ControllersEndpointTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	private final ManualClock scheduler = new ManualClock();

	private final ManualClock sleeper = this.scheduler;

	private final ControllerActivity activity = new ControllerActivity(Clock.fixed(NOW, ZoneOffset.UTC), 3, 100);

	private final TokenBucketRateLimiter<Object> managerBucket = RateLimiters.bucket(Double.POSITIVE_INFINITY, 1,
			this.scheduler);

	private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

	private final List<WorkQueueController> started = new ArrayList<>();

	private ControllerManager manager;

	@AfterEach
	void stop() {
		// no test needs a drain, and a worker parked at the gate would hold one up
		this.started.forEach((controller) -> controller.stop(Duration.ZERO));
	}

	@Test
	void listsTheManagerAndEveryControllerWithZeroedCounts() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed),
				definition("idle", (request) -> Result.done()).maxConcurrentReconciles(4)
					.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(10))));
		start("flaky");
		ControllersDescriptor all = endpoint.controllers();
		assertThat(all.manager().leader()).isFalse();
		assertThat(all.manager().leaderElection()).isFalse();
		assertThat(all.manager().rateLimiter().type()).isEqualTo("bucket");
		assertThat(all.manager().rateLimiter().config()).containsEntry("qps", "+Inf").containsEntry("burst", 1);
		assertThat(all.manager().appliesTo()).containsExactly("event", "retry", "requeue-after");
		assertThat(all.manager().maxWait()).isNull();
		assertThat(all.controllers()).containsOnlyKeys("flaky", "idle");
		ControllerDescriptor flaky = all.controllers().get("flaky");
		assertThat(flaky.watches()).isEqualTo("v1/ConfigMap");
		assertThat(flaky.state()).isEqualTo("running");
		assertThat(flaky.maxConcurrentReconciles()).isEqualTo(1);
		assertThat(flaky.retries()).isZero();
		assertThat(flaky.reconciles()).isEqualTo(new ReconcileCounts(0, 0, 0, 0, 0));
		assertThat(flaky.rateLimiter().type()).isEqualTo("max-of");
		assertThat(flaky.limiterDelay().count()).isZero();
		assertThat(flaky.limiterDelay().bySource()).containsOnlyKeys("backoff", "bucket", "manager");
		assertThat(flaky.dependents()).isEmpty();
		ControllerDescriptor idle = all.controllers().get("idle");
		assertThat(idle.state()).isEqualTo("new");
		assertThat(idle.maxConcurrentReconciles()).isEqualTo(4);
		assertThat(idle.rateLimiter().config()).containsEntry("baseDelay", "PT0.005S");
	}

	@Test
	void eachDependentIsListedWithItsDeclarationAndWhatItsAppliesAndPrunesDid() {
		Dependent<V1ConfigMap, V1Secret> token = Dependent.<V1ConfigMap, V1Secret>of("token", V1Secret.class,
				(primary, context) -> new V1Secret().metadata(new V1ObjectMeta().name("token")),
				(options) -> options.readyTimeout(Duration.ofMinutes(2)));
		Dependent<V1ConfigMap, V1Deployment> web = Dependent
			.<V1ConfigMap, V1Deployment>of("web", V1Deployment.class,
					(primary, context) -> new V1Deployment().metadata(new V1ObjectMeta().name("web")),
					(options) -> options.dependsOn("token"))
			.withEnabled(false);
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS,
				definition("site", (request) -> Result.done()).dependent(token).dependent(web));
		this.activity.dependentApplied("site", "token", true, false);
		this.activity.dependentApplied("site", "token", true, true);
		this.activity.dependentApplied("site", "token", false, false);
		this.activity.dependentPruned("site", "web");
		this.activity.dependentPruned("site", "web");
		// objects applied under a name the code no longer has are pruned, but not listed
		this.activity.dependentPruned("site", "legacy");
		assertThat(endpoint.controllers().controllers().get("site").dependents()).containsExactly(
				new DependentDescriptor("token", "v1/Secret", true, List.of(), "PT2M", 2, 1, 1, 0),
				new DependentDescriptor("web", "apps/v1/Deployment", false, List.of("token"), "PT10M", 0, 0, 0, 2));
		assertThat(endpoint.controller("site").summary().dependents()).hasSize(2);
		assertThat(this.activity.dependent("site", "legacy")).isEqualTo(new DependentCounts(0, 0, 0, 1));
		assertThat(this.activity.dependent("nope", "token")).isEqualTo(new DependentCounts(0, 0, 0, 0));
	}

	@Test
	void eachSourceIsListedWithItsKindPeriodAndKeysThenReconcileAllOnceItRan() {
		ChannelSource hooks = Source.channel("hooks");
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS,
				definition("sourced", (request) -> Result.done()).source(hooks)
					.source(Source.timer("nightly", Duration.ofHours(24))));
		assertThat(endpoint.controllers().controllers().get("sourced").sources()).containsExactly(
				new SourceDescriptor("hooks", "channel", null, 0),
				new SourceDescriptor("nightly", "timer", "PT24H", 0));
		start("sourced");
		hooks.offer(new Request("ns", "a"));
		hooks.offer(new Request("ns", "b"));
		await().until(() -> idle(this.manager.controller("sourced")));
		// the manager never started its informers, so reconcile-all finds no key
		assertThat(endpoint.act("sourced", "reconcile-all", null, null, null, null).state()).isEqualTo("running");
		assertInvalid(() -> endpoint.act("sourced", "reconcile-all", "ns/a", null, null, null),
				"reconcile-all takes no arguments");
		this.activity.sourceKeyAdded("sourced", "reconcile-all");
		assertThat(endpoint.controller("sourced").summary().sources()).containsExactly(
				new SourceDescriptor("hooks", "channel", null, 2), new SourceDescriptor("nightly", "timer", "PT24H", 0),
				new SourceDescriptor("reconcile-all", "reconcile-all", null, 1));
	}

	@Test
	void retriesCountRateLimitedRequeuesAndLimiterDelayFollowsTheDefaultLimiterExactly() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed));
		Controller flaky = start("flaky");
		flaky.enqueue(new Request("ns", "a"));
		await().until(() -> this.attempts.get("a") != null && this.attempts.get("a").get() == 1 && idle(flaky));
		ControllerDescriptor summary = endpoint.controllers().controllers().get("flaky");
		assertThat(summary.retries()).isEqualTo(1);
		assertThat(summary.queue().waiting()).isEqualTo(1);
		assertThat(summary.reconciles()).isEqualTo(new ReconcileCounts(0, 1, 0, 0, 0));
		this.scheduler.advance(Duration.ofMillis(5));
		await().until(() -> this.attempts.get("a").get() == 2 && idle(flaky));
		ControllerDetails details = endpoint.controller("flaky");
		assertThat(details.summary().retries()).isEqualTo(2);
		assertThat(details.summary().limiterDelay().count()).isEqualTo(2);
		assertThat(details.summary().limiterDelay().totalSeconds()).isEqualTo(0.015);
		assertThat(details.summary().limiterDelay().maxSeconds()).isEqualTo(0.01);
		assertThat(details.summary().limiterDelay().bySource()).containsEntry("backoff",
				new SourceStatistics(2, 0.015, 0.01));
		assertThat(details.items()).containsExactly(new ItemDescriptor("ns/a", 2, 2, "PT0.01S"));
		assertThat(details.events()).containsExactly(
				new DecisionDescriptor("ns/a", "retry", "backoff", "PT0.01S", "2026-01-02T03:04:05Z"),
				new DecisionDescriptor("ns/a", "retry", "backoff", "PT0.005S", "2026-01-02T03:04:05Z"));
		this.scheduler.advance(Duration.ofMillis(4));
		assertThat(endpoint.controller("flaky").items()).extracting(ItemDescriptor::nextAttemptIn)
			.containsExactly("PT0.006S");
		this.scheduler.advance(Duration.ofMillis(6));
		await().until(() -> this.attempts.get("a").get() == 3 && idle(flaky));
		details = endpoint.controller("flaky");
		assertThat(details.summary().reconciles()).isEqualTo(new ReconcileCounts(1, 2, 0, 0, 0));
		assertThat(details.summary().queue().waiting()).isZero();
		assertThat(details.items()).isEmpty();
	}

	@Test
	void requeueAfterIsNeitherARetryNorALimiterDecision() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS,
				definition("periodic", (request) -> Result.requeueAfter(Duration.ofMinutes(5))));
		Controller periodic = start("periodic");
		periodic.enqueue(new Request("ns", "a"));
		await().until(() -> idle(periodic) && periodic.queue().waiting() == 1);
		ControllerDetails details = endpoint.controller("periodic");
		assertThat(details.summary().retries()).isZero();
		assertThat(details.summary().reconciles()).isEqualTo(new ReconcileCounts(0, 0, 0, 1, 0));
		assertThat(details.summary().limiterDelay().count()).isZero();
		assertThat(details.items()).isEmpty();
		assertThat(details.events()).isEmpty();
	}

	@Test
	void managerGateWaitsAreLimiterDelayFromTheManagerButNoRetries() {
		TokenBucketRateLimiter<Object> gateBucket = RateLimiters.bucket(10, 1, this.scheduler);
		this.manager = manager(new ManagerGate(gateBucket, Trigger.queued(), Duration.ofMinutes(1)),
				definition("gated", (request) -> Result.done()));
		ControllersEndpoint endpoint = new ControllersEndpoint(() -> this.manager, this.activity, Show.ALWAYS);
		Controller gated = start("gated");
		gated.enqueue(new Request("ns", "a"));
		gated.enqueue(new Request("ns", "b"));
		await().until(() -> this.sleeper.sleeping() == 1);
		ControllerDetails details = endpoint.controller("gated");
		assertThat(details.summary().retries()).isZero();
		assertThat(details.summary().limiterDelay().bySource()).containsEntry("manager",
				new SourceStatistics(1, 0.1, 0.1));
		assertThat(details.events())
			.containsExactly(new DecisionDescriptor("ns/b", "event", "manager", "PT0.1S", "2026-01-02T03:04:05Z"));
		assertThat(endpoint.controllers().manager().maxWait()).isEqualTo("PT1M");
		assertThat(endpoint.controllers().manager().rateLimiter().live()).containsEntry("tokens", -1.0);
	}

	@Test
	void theDecisionLogKeepsOnlyTheLatestDecisions() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("failing", (request) -> Result.requeue()));
		for (String name : List.of("a", "b", "c", "d", "e")) {
			this.activity.limiterDelayed("failing", new Request("ns", name), Trigger.RETRY, DelaySource.BACKOFF,
					Duration.ZERO);
		}
		assertThat(endpoint.controller("failing").events()).extracting(DecisionDescriptor::key)
			.containsExactly("ns/e", "ns/d", "ns/c");
		assertThat(endpoint.controller("failing").summary().retries()).isEqualTo(5);
	}

	@Test
	void keysAreHiddenAsTheEnvEndpointHidesValues() {
		ControllersEndpoint hidden = endpoint(Show.NEVER, definition("flaky", this::failTwiceThenSucceed));
		Controller flaky = start("flaky");
		flaky.enqueue(new Request("ns", "secret-name"));
		await().until(() -> idle(flaky) && flaky.queue().waiting() == 1);
		assertThat(hidden.controller("flaky").items()).extracting(ItemDescriptor::key).containsExactly("******");
		assertThat(hidden.controller("flaky").events()).extracting(DecisionDescriptor::key).containsExactly("******");
		ControllersEndpoint whenAuthorized = new ControllersEndpoint(() -> this.manager, this.activity,
				Show.WHEN_AUTHORIZED);
		// outside the web there is no security context, and the caller counts
		// as authorized
		assertThat(whenAuthorized.controller("flaky").items()).extracting(ItemDescriptor::key)
			.containsExactly("ns/secret-name");
		ControllersEndpointWebExtension web = new ControllersEndpointWebExtension(whenAuthorized, Show.WHEN_AUTHORIZED,
				Set.of("OPERATOR"));
		assertThat(details(web, SecurityContext.NONE).items()).extracting(ItemDescriptor::key)
			.containsExactly("******");
		assertThat(details(web, user("OTHER")).items()).extracting(ItemDescriptor::key).containsExactly("******");
		assertThat(details(web, user("OPERATOR")).events()).extracting(DecisionDescriptor::key)
			.containsExactly("ns/secret-name");
	}

	@Test
	void anUnknownControllerReadsAsNullWhichIsNotFound() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed));
		assertThat(endpoint.controller("nope")).isNull();
		assertThat(endpoint.simulate("nope", "simulate", null, null)).isNull();
	}

	@Test
	void simulateReplaysAFreshCopyOfTheConfiguredBucket() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("bucket", (request) -> Result.done())
			.rateLimiter(RateLimiters.bucket(2, 1, this.scheduler)));
		// one key: its first retry takes the token left at time 0, then one every 0.5 s
		SimulationDescriptor simulation = endpoint.simulate("bucket", "simulate", 1, 3);
		assertThat(simulation.requeuesPerSecond()).containsExactly(2L, 2L, 2L);
		assertThat(simulation.totalRequeues()).isEqualTo(6);
		assertThat(simulation.rateLimiter().config()).containsEntry("qps", 2.0).containsEntry("burst", 1);
		assertThat(this.manager.controller("bucket").rateLimiter().state().live()).containsEntry("tokens", 1.0);
	}

	@Test
	void simulateReplaysExponentialBackoffPerKey() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("exp", (request) -> Result.done())
			.rateLimiter(RateLimiters.exponential(Duration.ofMillis(100), Duration.ofSeconds(1))));
		// each key retries at 0.1, 0.3, 0.7, 1.5, 2.5 s
		SimulationDescriptor simulation = endpoint.simulate("exp", "simulate", 2, 3);
		assertThat(simulation.requeuesPerSecond()).containsExactly(6L, 2L, 2L);
		assertThat(simulation.totalRequeues()).isEqualTo(10);
	}

	@Test
	void simulateRejectsBadArgumentsAndLimitersItCannotReplay() {
		RateLimiter<Request> custom = new RateLimiter<>() {

			@Override
			public Duration when(Request item) {
				return Duration.ofSeconds(1);
			}

			@Override
			public void forget(Request item) {
			}

			@Override
			public int numRequeues(Request item) {
				return 0;
			}

		};
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS,
				definition("none", (request) -> Result.done()).rateLimiter(RateLimiters.none()),
				definition("custom", (request) -> Result.done()).rateLimiter(custom),
				definition("default", (request) -> Result.done()));
		assertInvalid(() -> endpoint.simulate("default", "simulate", 0, 10), "items must be between 1 and 100000");
		assertInvalid(() -> endpoint.simulate("default", "simulate", 10, 3601), "seconds must be between 1 and 3600");
		assertInvalid(() -> endpoint.simulate("default", "simulations", 10, 10), "Unknown operation 'simulations'");
		assertInvalid(() -> endpoint.simulate("none", "simulate", 1, 1), "does the limiter ever delay?");
		assertInvalid(() -> endpoint.simulate("custom", "simulate", 1, 1), "cannot be rebuilt");
	}

	@Test
	void pauseAndResumeAController() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed));
		start("flaky");
		assertThat(endpoint.pause("flaky").state()).isEqualTo("paused");
		assertThat(endpoint.resume("flaky").state()).isEqualTo("running");
	}

	@Test
	void forgetClearsAKeysBackoffAndItsItem() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed));
		Controller flaky = start("flaky");
		flaky.enqueue(new Request("ns", "a"));
		await().until(() -> idle(flaky) && flaky.queue().waiting() == 1);
		assertThat(flaky.queue().numRequeues(new Request("ns", "a"))).isEqualTo(1);
		endpoint.forget("flaky", "ns/a");
		assertThat(flaky.queue().numRequeues(new Request("ns", "a"))).isZero();
		assertThat(endpoint.controller("flaky").items()).isEmpty();
		// the count of what happened stays
		assertThat(endpoint.controller("flaky").summary().retries()).isEqualTo(1);
	}

	@Test
	void retuneChangesAControllersBucketAndTheManagersBucket() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed));
		ControllerDescriptor retuned = endpoint.retune("flaky", 2.5, 7);
		assertThat(retuned.rateLimiter().children().get(1).config()).containsEntry("qps", 2.5)
			.containsEntry("burst", 7);
		assertThat(endpoint.retune("flaky", null, 3).rateLimiter().children().get(1).config()).containsEntry("qps", 2.5)
			.containsEntry("burst", 3);
		assertThat(endpoint.retuneManager(50.0, 5).rateLimiter().config()).containsEntry("qps", 50.0)
			.containsEntry("burst", 5);
		assertThat(this.managerBucket.qps()).isEqualTo(50.0);
	}

	@Test
	void badWriteArgumentsAreRejectedAndChangeNothing() {
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("flaky", this::failTwiceThenSucceed),
				definition("backoff-only", (request) -> Result.done())
					.rateLimiter(RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1))),
				definition("two-buckets", (request) -> Result.done())
					.rateLimiter(RateLimiters.maxOf(RateLimiters.bucket(1, 1), RateLimiters.bucket(2, 2))));
		start("flaky");
		assertInvalid(() -> endpoint.retune("flaky", 0.0, 5), "qps must be greater than 0");
		assertInvalid(() -> endpoint.retune("flaky", Double.NaN, null), "qps must be greater than 0");
		assertInvalid(() -> endpoint.retune("flaky", 5.0, 0), "burst must be at least 1");
		assertInvalid(() -> endpoint.retune("flaky", null, null), "retune needs 'qps', 'burst' or both");
		assertInvalid(() -> endpoint.act("flaky", "retune", "ns/a", 1.0, null, null),
				"retune takes only 'qps' and 'burst'");
		assertInvalid(() -> endpoint.retuneManager(-1.0, 5), "qps must be greater than 0");
		assertInvalid(() -> endpoint.retune("backoff-only", 1.0, null), "has 0 token buckets");
		assertInvalid(() -> endpoint.retune("two-buckets", 1.0, null), "has 2 token buckets");
		assertInvalid(() -> endpoint.forget("flaky", null), "forget needs a 'key'");
		assertInvalid(() -> endpoint.forget("flaky", "ns/"), "'ns/' is not a key");
		assertInvalid(() -> endpoint.forget("flaky", "a/b/c"), "'a/b/c' is not a key");
		assertInvalid(() -> endpoint.act("flaky", "forget", "ns/a", 1.0, null, null), "forget takes only 'key'");
		assertInvalid(() -> endpoint.act("flaky", "pause", "ns/a", null, null, null), "pause takes no arguments");
		assertInvalid(() -> endpoint.act("flaky", "restart", null, null, null, null), "Unknown action 'restart'");
		assertInvalid(() -> endpoint.act("nope", "pause", null, null, null, null), "No controller named 'nope'");
		ControllerDescriptor flaky = endpoint.controllers().controllers().get("flaky");
		assertThat(flaky.state()).isEqualTo("running");
		assertThat(flaky.rateLimiter().children().get(1).config()).containsEntry("qps", 10.0)
			.containsEntry("burst", 100);
		assertThat(this.managerBucket.qps()).isInfinite();
	}

	@Test
	void namespacesActionChangesWhereTheControllerReconcilesAndRefusesWhatItCannotServe() {
		// Secrets of named namespaces alone: one informer per namespace, which cannot
		// take every namespace while it runs
		ControllerDefinitionBuilder<V1Secret> teams = ControllerDefinition.builder(V1Secret.class)
			.named("teams")
			.namespaces("team-a")
			.rateLimiter(RateLimiters.controllerDefault(this.scheduler));
		this.reconcilers.put(teams, (request) -> Result.done());
		ControllersEndpoint endpoint = endpoint(Show.ALWAYS, definition("everywhere", (request) -> Result.done()),
				teams);
		assertInvalid(() -> endpoint.act("everywhere", "namespaces", null, null, null, null),
				"namespaces needs 'namespaces'");
		assertInvalid(() -> endpoint.act("everywhere", "namespaces", "ns/a", null, null, "team-a"),
				"namespaces takes only 'namespaces'");
		assertInvalid(() -> endpoint.act("everywhere", "pause", null, null, null, "team-a"),
				"pause takes no 'namespaces'");
		assertInvalid(() -> endpoint.act("teams", "namespaces", null, null, null, ""),
				"cannot change to every namespace while it runs");
		assertInvalid(() -> endpoint.act("teams", "namespaces", null, null, null, "Team_B"),
				"'Team_B' is not a namespace name");
		assertThat(this.manager.controller("teams").namespaces()).containsExactly("team-a");
		// a controller of every namespace has its objects cached already: it narrows at
		// once
		endpoint.act("everywhere", "namespaces", null, null, null, "team-a, team-b");
		assertThat(this.manager.controller("everywhere").namespaces()).containsExactlyInAnyOrder("team-a", "team-b");
		endpoint.namespaces("everywhere", "");
		assertThat(this.manager.controller("everywhere").namespaces()).isEmpty();
	}

	private void assertInvalid(Runnable operation, String message) {
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(operation::run)
			.withMessageContaining(message);
	}

	private Result failTwiceThenSucceed(Request request) {
		if (this.attempts.computeIfAbsent(request.name(), (name) -> new AtomicInteger()).incrementAndGet() <= 2) {
			throw new IllegalStateException("failing on purpose");
		}
		return Result.done();
	}

	// the reconcile function ends a definition; the tests adjust the builder first
	private final Map<ControllerDefinitionBuilder<?>, ReconcileFunction> reconcilers = new IdentityHashMap<>();

	private ControllerDefinitionBuilder<V1ConfigMap> definition(String name, ReconcileFunction reconciler) {
		ControllerDefinitionBuilder<V1ConfigMap> builder = ControllerDefinition.builder(V1ConfigMap.class)
			.named(name)
			.rateLimiter(RateLimiters.controllerDefault(this.scheduler))
			.reconcileTimeout(Duration.ZERO);
		this.reconcilers.put(builder, reconciler);
		return builder;
	}

	private ControllersEndpoint endpoint(Show show, ControllerDefinitionBuilder<?>... definitions) {
		this.manager = manager(new ManagerGate(this.managerBucket, Trigger.queued(), null), definitions);
		return new ControllersEndpoint(() -> this.manager, this.activity, show);
	}

	private ControllerManager manager(ManagerGate gate, ControllerDefinitionBuilder<?>... definitions) {
		// never started: its controllers are started one by one and fed keys by the tests
		ManagerBuilder builder = ControllerManager
			.builder(new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0))
			.clock(this.scheduler)
			.abandonGrace(Duration.ofMillis(100))
			.gate(gate)
			.listener(this.activity);
		for (ControllerDefinitionBuilder<?> definition : definitions) {
			builder.controller(definition.reconcile(this.reconcilers.get(definition)));
		}
		return builder.build();
	}

	private WorkQueueController start(String name) {
		WorkQueueController controller = (WorkQueueController) this.manager.controller(name);
		controller.start();
		this.started.add(controller);
		return controller;
	}

	private static boolean idle(Controller controller) {
		return controller.queue().inFlight() == 0 && controller.queue().depth() == 0;
	}

	private static SecurityContext user(String role) {
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return () -> "someone";
			}

			@Override
			public boolean isUserInRole(String candidate) {
				return role.equals(candidate);
			}

		};
	}

	private static org.awaitility.core.ConditionFactory await() {
		return with().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(1))
			.await()
			.atMost(Duration.ofSeconds(10));
	}

	private static ControllerDetails details(ControllersEndpointWebExtension web, SecurityContext context) {
		return (ControllerDetails) web.controller(context, "flaky").getBody();
	}

}
