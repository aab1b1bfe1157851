package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.internal.controller.WorkQueueController;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a real manager logs against the real test API server in routine operation: a clean
 * shutdown logs no ERROR, and a reconcile that keeps failing with the same error logs its
 * message on every retry but its stack trace once.
 */
@KubernetesTest
class LogNoiseIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	// the loggers the test configuration quiets; here they log as they do in production
	private static final List<String> LOGGERS = List.of(Logger.ROOT_LOGGER_NAME,
			"io.kubernetes.client.informer.cache.Controller", "io.kubernetes.client.informer.cache.ProcessorListener",
			"io.kubernetes.client.informer.cache.ReflectorRunnable",
			"io.kubernetes.client.extended.leaderelection.LeaderElector", WorkQueueController.class.getName());

	ApiClient client;

	TestNamespace namespace;

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Map<String, Level> levels = new HashMap<>();

	private ControllerManager manager;

	@BeforeEach
	void captureLogs() {
		for (String name : LOGGERS) {
			Logger logger = logger(name);
			this.levels.put(name, logger.getLevel());
			logger.setLevel(Level.INFO);
		}
		this.logs.start();
		logger(Logger.ROOT_LOGGER_NAME).addAppender(this.logs);
	}

	@AfterEach
	void restoreLogs() {
		if (this.manager != null) {
			this.manager.stop();
		}
		logger(Logger.ROOT_LOGGER_NAME).detachAppender(this.logs);
		this.levels.forEach((name, level) -> logger(name).setLevel(level));
	}

	@Test
	void aCleanStartAndStopLogsNoError() throws ApiException {
		String ns = this.namespace.name();
		new CoreV1Api(this.client)
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("model")))
			.execute();
		AtomicInteger reconciles = new AtomicInteger();
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("clean")
				.namespaces(ns)
				.owns(V1Secret.class)
				.reconcile((request) -> {
					reconciles.incrementAndGet();
					return Result.done();
				}))
			.build();
		this.manager.start();
		await().atMost(TIMEOUT).until(() -> reconciles.get() >= 1);
		Set<Thread> informerThreads = newInformerThreads(before);
		assertThat(informerThreads).isNotEmpty();
		this.manager.stop();
		this.manager = null;
		// client-java's informer threads log as they end, after stop() returned
		await().atMost(TIMEOUT).until(() -> informerThreads.stream().noneMatch(Thread::isAlive));
		assertThat(this.logs.list).filteredOn((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR))
			.extracting((event) -> event.getLoggerName() + ": " + event.getFormattedMessage())
			.isEmpty();
	}

	@Test
	void aCleanStopOfALeaderAndOfACandidateLogsNoError() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		ControllerManager leader = candidate("leader");
		this.manager = leader;
		leader.start();
		await().atMost(TIMEOUT).until(leader::isLeader);
		ControllerManager candidate = candidate("candidate");
		candidate.start();
		await().atMost(TIMEOUT).until(candidate::hasSynced);
		Set<Thread> informerThreads = newInformerThreads(before);
		candidate.stop();
		leader.stop();
		this.manager = null;
		await().atMost(TIMEOUT).until(() -> informerThreads.stream().noneMatch(Thread::isAlive));
		assertThat(candidate.isLeader()).isFalse();
		assertThat(this.logs.list).filteredOn((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR))
			.extracting((event) -> event.getLoggerName() + ": " + event.getFormattedMessage())
			.isEmpty();
	}

	private ControllerManager candidate(String identity) {
		// client-java's elector runs on its own time; a short retry period keeps the test
		// short
		return ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named("elected")
				.namespaces(this.namespace.name())
				.reconcile((request) -> Result.done()))
			.leaderElection(new LeaderElectionSettings("log-noise", this.namespace.name(), identity,
					new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1))))
			.build();
	}

	private static Set<Thread> newInformerThreads(Set<Thread> before) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread))
			.filter((thread) -> thread.getName().startsWith("informer-controller-")
					|| thread.getName().startsWith("controller-reflector-"))
			.collect(Collectors.toSet());
	}

	@Test
	void aRepeatedErrorLogsItsMessageOnEveryRetryAndItsStackTraceOnce() {
		int failures = 5;
		AtomicInteger attempts = new AtomicInteger();
		start("broken", (request) -> {
			if (attempts.incrementAndGet() <= failures) {
				throw new IllegalStateException("model 'a' has no spec");
			}
			return Result.done();
		});
		this.manager.controller("broken").enqueue(new Request(this.namespace.name(), "a"));
		await().atMost(TIMEOUT).until(() -> attempts.get() > failures);
		List<ILoggingEvent> retries = retriesOf("broken");
		assertThat(retries).hasSize(failures)
			.allSatisfy((event) -> assertThat(event.getLevel()).isEqualTo(Level.WARN))
			.allSatisfy((event) -> assertThat(event.getFormattedMessage()).contains("model 'a' has no spec"));
		assertThat(retries).filteredOn((event) -> event.getThrowableProxy() != null).hasSize(1);
		assertThat(retries.get(0).getThrowableProxy()).isNotNull();
	}

	@Test
	void anotherKeyOrAnotherErrorLogsItsStackTraceAgain() {
		Map<String, AtomicInteger> attempts = Map.of("a", new AtomicInteger(), "b", new AtomicInteger());
		start("flaky", (request) -> {
			int attempt = attempts.get(request.name()).incrementAndGet();
			if (attempt <= 2) {
				throw new IllegalStateException("model '" + request.name() + "' has no spec");
			}
			if (attempt <= 4) {
				throw new IllegalStateException("model '" + request.name() + "' has no owner");
			}
			return Result.done();
		});
		this.manager.controller("flaky").enqueue(new Request(this.namespace.name(), "a"));
		this.manager.controller("flaky").enqueue(new Request(this.namespace.name(), "b"));
		await().atMost(TIMEOUT).until(() -> attempts.values().stream().allMatch((count) -> count.get() > 4));
		List<ILoggingEvent> retries = retriesOf("flaky");
		assertThat(retries).hasSize(8);
		Map<String, Long> traces = retries.stream()
			.filter((event) -> event.getThrowableProxy() != null)
			.collect(Collectors.groupingBy((event) -> event.getThrowableProxy().getMessage(), Collectors.counting()));
		assertThat(traces).containsOnly(Map.entry("model 'a' has no spec", 1L), Map.entry("model 'a' has no owner", 1L),
				Map.entry("model 'b' has no spec", 1L), Map.entry("model 'b' has no owner", 1L));
	}

	@Test
	void atDebugEveryRetryCarriesItsStackTrace() {
		logger(WorkQueueController.class.getName()).setLevel(Level.DEBUG);
		AtomicInteger attempts = new AtomicInteger();
		start("debugged", (request) -> {
			if (attempts.incrementAndGet() <= 3) {
				throw new IllegalStateException("model 'a' has no spec");
			}
			return Result.done();
		});
		this.manager.controller("debugged").enqueue(new Request(this.namespace.name(), "a"));
		await().atMost(TIMEOUT).until(() -> attempts.get() > 3);
		assertThat(retriesOf("debugged")).hasSize(3)
			.allSatisfy((event) -> assertThat(event.getThrowableProxy()).isNotNull());
	}

	private void start(String name, ReconcileFunction reconcile) {
		// no backoff: the retries follow each other at once, and time plays no part
		this.manager = ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(V1ConfigMap.class)
				.named(name)
				.namespaces(this.namespace.name())
				.rateLimiter(new RecordingRateLimiter(Duration.ZERO))
				.reconcile(reconcile))
			.build();
		this.manager.start();
	}

	private List<ILoggingEvent> retriesOf(String controller) {
		return this.logs.list.stream()
			.filter((event) -> event.getLoggerName().equals(WorkQueueController.class.getName()))
			.filter((event) -> event.getFormattedMessage().contains("controller '" + controller + "' failed"))
			.toList();
	}

	private static Logger logger(String name) {
		return (Logger) LoggerFactory.getLogger(name);
	}

}
