package dev.kubereconciler.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.test.KubernetesTestServer;
import dev.kubereconciler.test.certmanager.CertManagerCrds;
import dev.kubereconciler.test.certmanager.CertificateIssuer;
import dev.kubereconciler.test.deploy.DeployedApplication;
import dev.kubereconciler.test.deploy.Replica;
import dev.kubereconciler.test.gc.GarbageCollector;

/**
 * The soak: three leader-elected replicas of the sample, deployed from its generated
 * manifests, each behind a fault proxy of its own, under steady churn while faults are
 * injected one after another; figures every minute; at the end, every widget checked and
 * the replicas' journals searched for a key reconciled by two at once.
 */
final class Soak {

	private static final Logger logger = LoggerFactory.getLogger(Soak.class);

	// what a user's kustomize patch would add: the reconcile journal, at debug
	private static final String JOURNAL = "LOGGING_LEVEL_DEV_KUBERECONCILER_RECONCILES";

	// and the external API the replicas share, as they would share a real one
	private static final Duration LAST_FAULT_MARGIN = Duration.ofSeconds(30);

	private static final String STORE_URL = "SAMPLE_EXTERNALAPI_STOREURL";

	private final SoakSettings settings;

	private final KubernetesTestServer server;

	private final List<SoakOutcome> outcomes = new ArrayList<>();

	private final Map<String, SoakSample> last = new HashMap<>();

	Soak(SoakSettings settings, KubernetesTestServer server) {
		this.settings = settings;
		this.server = server;
	}

	/**
	 * Run the soak and write its report.
	 * @return every acceptance breach, empty when the soak passed
	 */
	List<String> run(Path work) throws Exception {
		ApiClient admin = this.server.apiClient();
		Path manifests = SampleDeployment.generate(work.resolve("kubernetes"), this.settings.deploymentArguments());
		try (ExternalWidgetStoreServer externalApi = ExternalWidgetStoreServer.start()) {
			addEnvironment(manifests.resolve("deployment.yaml"),
					Map.of(JOURNAL, "debug", STORE_URL, externalApi.url().toString()));
			return run(admin, manifests, externalApi);
		}
	}

	private List<String> run(ApiClient admin, Path manifests, ExternalWidgetStoreServer externalApi) throws Exception {
		CertManagerCrds.install(admin);
		TestObjects.createNamespace(admin, "mirrored");
		SampleDeployment.apply(KubectlApplyTests.kubectl(), this.server, manifests);
		new CertificateIssuer(admin).issue("default", "kube-reconciler-sample-webhook");
		ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4);
		// as kube-controller-manager: the settings of a deleted widget go with it
		try (GarbageCollector collector = GarbageCollector.start(admin);
				SoakReplicas replicas = new SoakReplicas(this.server)) {
			replicas.start(DeployedApplication.builder(this.server, "default")
				.manifests(manifests)
				.mainClass(SampleDeployment.MAIN_CLASS)
				.classPath(SampleDeployment.runtimeClassPathArgument())
				// under the output, so that a failed start leaves its logs
				.directory(this.settings.output().resolve("pods"))
				.probePeriod(Duration.ofMillis(500))
				// three JVMs starting at once on a shared 2-core machine
				.readyTimeout(Duration.ofSeconds(300)));
			List<String> names = replicas.replicas().stream().map(replicas::name).toList();
			SoakLeaders leaders = new SoakLeaders(replicas);
			scheduler.scheduleWithFixedDelay(leaders, 0, 250, TimeUnit.MILLISECONDS);
			SoakFaults faults = new SoakFaults(this.server, replicas, leaders, this.settings);
			leaders.awaitLeader(this.settings.leaseDuration().multipliedBy(4));
			faults.createProbe();
			SoakChurn churn = new SoakChurn(admin, this.settings.maxWidgets(), externalApi.store());
			scheduler.scheduleWithFixedDelay(churn, 0, this.settings.writePause().toMillis(), TimeUnit.MILLISECONDS);
			SoakReport report = new SoakReport(names);
			Instant start = Instant.now();
			// the minutes on a timer of their own, so that each row is one minute however
			// long a fault takes
			ScheduledFuture<?> minutes = scheduler.scheduleAtFixedRate(() -> {
				try {
					minute(report, replicas, leaders, churn, start);
				}
				catch (RuntimeException ex) {
					// a failed row must not stop the timer of the rows after it
					logger.warn("The figures of a minute could not be taken", ex);
				}
			}, 60, 60, TimeUnit.SECONDS);
			injectFaults(faults, start);
			churn.stop();
			List<String> breaches = settle(churn, faults);
			minutes.cancel(false);
			minute(report, replicas, leaders, churn, start);
			return finish(report, replicas, leaders, churn, breaches, start);
		}
		finally {
			scheduler.shutdownNow();
		}
	}

	// faults one after another, each recovered from before the next, until every kind
	// ran once and the duration is over
	private void injectFaults(SoakFaults faults, Instant start) {
		Duration duration = Duration.ofMinutes(this.settings.minutes());
		int next = 0;
		while (next < SoakFaults.KINDS.size() || Duration.between(start, Instant.now()).compareTo(duration) < 0) {
			Instant slot = Instant.now();
			if (next >= SoakFaults.KINDS.size()
					&& Duration.between(start, slot).plus(LAST_FAULT_MARGIN).compareTo(duration) > 0) {
				// every kind ran: a fault started this late would only lengthen the run
				SoakSettings.pause(duration.minus(Duration.between(start, slot)));
				break;
			}
			SoakOutcome outcome = faults.inject(SoakFaults.KINDS.get(next % SoakFaults.KINDS.size()));
			logger.info("{} on {}: {}", outcome.kind(), outcome.target(), outcome.bounds());
			synchronized (this.outcomes) {
				this.outcomes.add(outcome);
			}
			next++;
			Instant until = slot.plus(this.settings.faultPeriod());
			while (Instant.now().isBefore(until) && Duration.between(start, Instant.now()).compareTo(duration) < 0) {
				SoakSettings.pause(Duration.ofSeconds(1));
			}
		}
	}

	private synchronized void minute(SoakReport report, SoakReplicas replicas, SoakLeaders leaders, SoakChurn churn,
			Instant start) {
		int minute = this.last.values().stream().mapToInt(SoakSample::minute).max().orElse(0) + 1;
		Instant from = start.plus(Duration.ofMinutes(minute - 1));
		Instant to = Instant.now();
		List<SoakSample> samples = new ArrayList<>();
		for (Replica replica : replicas.replicas()) {
			SoakSample sample = SoakSample.take(minute, replicas, replica);
			if (sample != null) {
				samples.add(sample);
			}
		}
		List<String> faults;
		synchronized (this.outcomes) {
			faults = this.outcomes.stream()
				.filter((outcome) -> !outcome.at().isBefore(from) && outcome.at().isBefore(to))
				.map((outcome) -> outcome.kind() + ((outcome.met()) ? "" : " (MISSED)"))
				.toList();
		}
		long leaderChanges = leaders.changes()
			.stream()
			.filter((change) -> change.leads() && !change.at().isBefore(from) && change.at().isBefore(to))
			.count();
		long partitions = faults.stream().filter((fault) -> fault.startsWith("partition")).count();
		SoakSample writes = this.last.get("churn");
		long total = churn.writes();
		long failed = churn.failedWrites();
		report.minute(minute, samples, Map.copyOf(this.last), faults, leaderChanges, partitions,
				total - ((writes != null) ? (long) writes.reconciles() : 0),
				failed - ((writes != null) ? (long) writes.errors() : 0));
		samples.forEach((sample) -> this.last.put(sample.replica(), sample));
		this.last.put("churn", new SoakSample(minute, to, "churn", 0, total, failed, 0, 0, 0, 0, 0, false));
	}

	// the churn stopped: every widget reaches its state within a bound
	private List<String> settle(SoakChurn churn, SoakFaults faults) {
		List<String> breaches = new ArrayList<>();
		Duration bound = Duration.ofSeconds(120);
		Instant at = Instant.now();
		List<String>[] wrong = new List[] { List.of() };
		Duration took = SoakLeaders.timeUntil(() -> {
			wrong[0] = churn.wrongStates();
			return wrong[0].isEmpty();
		}, at, bound);
		if (took == null) {
			breaches.add(wrong[0].size() + " of " + churn.touched() + " widgets in a wrong state " + bound.toSeconds()
					+ " s after the churn stopped: " + wrong[0]);
		}
		return breaches;
	}

	private List<String> finish(SoakReport report, SoakReplicas replicas, SoakLeaders leaders, SoakChurn churn,
			List<String> breaches, Instant start) throws IOException {
		ReconcileJournal journal = new ReconcileJournal();
		Path logs = Files.createDirectories(this.settings.output().resolve("logs"));
		for (Replica replica : replicas.replicas()) {
			journal.read(replicas.name(replica), replica.logFile());
			Files.copy(replica.logFile(), logs.resolve(replicas.name(replica) + ".log"),
					StandardCopyOption.REPLACE_EXISTING);
		}
		List<String> overlaps = journal.overlaps();
		if (!overlaps.isEmpty()) {
			breaches.add(overlaps.size() + " reconciles of a key by two replicas at once: "
					+ overlaps.stream().limit(20).toList());
		}
		if (journal.reconciles() == 0) {
			breaches.add(
					"No reconcile was journaled: the replicas' logs have no debug line of dev.kubereconciler.reconciles");
		}
		this.outcomes.stream()
			.filter((outcome) -> !outcome.met())
			.forEach((outcome) -> breaches.add("Fault " + outcome.kind() + " at " + outcome.at() + " on "
					+ outcome.target() + " not recovered in time: " + outcome.bounds()));
		breaches.addAll(report.flatness());
		List<String> summary = summary(report, journal, leaders, churn, breaches, start);
		report.write(this.settings.output(), summary);
		return breaches;
	}

	private List<String> summary(SoakReport report, ReconcileJournal journal, SoakLeaders leaders, SoakChurn churn,
			List<String> breaches, Instant start) {
		List<String> summary = new ArrayList<>();
		summary.add("# Soak of " + this.settings.minutes() + " minutes, started " + start);
		summary.add("");
		summary.add("Leader election: lease " + this.settings.leaseDuration().toSeconds() + " s, renew deadline "
				+ this.settings.renewDeadline().toSeconds() + " s, retry period "
				+ this.settings.retryPeriod().toSeconds() + " s. Load average at the end: " + loadAverage() + ".");
		summary.add("");
		summary.add("- widgets written: " + churn.touched() + "; writes " + churn.writes() + ", failed or refused "
				+ churn.failedWrites() + "; widgets the shared external API was made to lose: " + churn.losses());
		summary.add("- reconciles journaled: " + journal.reconciles() + " (" + journal.unfinished()
				+ " cut short by a kill); keys reconciled by two replicas at once: " + journal.overlaps().size());
		summary.add("- leader changes seen: " + leaders.changes().stream().filter(SoakLeaders.Change::leads).count()
				+ "; polls that saw two leaders at once: " + leaders.twoLeaders().size());
		report.flatnessFigures().forEach((figure) -> summary.add("- " + figure));
		summary.add("");
		summary.add("## Faults");
		summary.add("");
		summary.add("| at | fault | target | detail | bounds |");
		summary.add("|---|---|---|---|---|");
		this.outcomes.forEach((outcome) -> summary.add("| +" + Duration.between(start, outcome.at()).toSeconds()
				+ " s | " + outcome.kind() + " | " + outcome.target() + " | " + outcome.detail() + " | "
				+ outcome.bounds().stream().map(SoakOutcome.Bound::toString).collect(Collectors.joining("; ")) + " |"));
		summary.add("");
		summary.add("## Breaches");
		summary.add("");
		summary.add(breaches.isEmpty() ? "None."
				: breaches.stream().map((b) -> "- " + b).collect(Collectors.joining("\n")));
		return summary;
	}

	private static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	// as a kustomize patch would: more variables in the container's env
	private static void addEnvironment(Path deployment, Map<String, String> variables) throws IOException {
		List<String> lines = new ArrayList<>(Files.readAllLines(deployment));
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.trim().equals("env:") || line.trim().equals("- env:")) {
				String indent = lines.get(i + 1).substring(0, lines.get(i + 1).indexOf('-'));
				List<String> added = new ArrayList<>();
				variables.forEach((name, value) -> {
					added.add(indent + "- name: " + name);
					added.add(indent + "  value: \"" + value + "\"");
				});
				lines.addAll(i + 1, added);
				Files.write(deployment, lines);
				return;
			}
		}
		throw new IllegalStateException("The generated Deployment has no env to add " + variables.keySet() + " to");
	}

}
