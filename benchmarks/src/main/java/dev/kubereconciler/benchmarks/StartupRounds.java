package dev.kubereconciler.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The start-up benchmark: from the launch of a JVM to the first reconcile of the last of
 * N ConfigMaps, for the minimal application ({@code benchmarks/startup-app}) in each
 * {@link StartupConfiguration}, and for Java Operator SDK's plain {@code Operator} on the
 * same objects as the reference.
 *
 * <p>
 * It creates the ConfigMaps (1 KiB of data each) in a fresh namespace, extracts the
 * application jar for the configurations that need it, runs the training of each
 * configuration that has one (not measured), then runs R rounds, each configuration once
 * per round in a fresh JVM, each round starting with the next configuration. The times
 * are taken from the instant just before the process is started to the milestones that
 * the process prints: {@code main} entered, {@code beans} (every singleton made),
 * {@code list-sent} and {@code listed} (the informer's first list), {@code synced} (the
 * caches synced), {@code refreshed} (the Spring context refreshed; for Java Operator SDK,
 * {@code start()} returned) and the first and last first reconcile, each with the classes
 * loaded by then; the Spring application also prints Spring's start-up steps, which the
 * report summarises. The bare Spring Boot application ({@code bare}) ends once it listed
 * the ConfigMaps.
 *
 * <p>
 * Usage: {@code StartupRounds KUBECONFIG [objects N] [rounds R] [configurations a,b,...]
 * [app JAR] [josdk JAR] [bare JAR] [baselines JAR,...] [java JAVA] [java25 JAVA|none] [work DIR]};
 * by default 1,000 objects, 5 rounds, every configuration, the jars under
 * {@code benchmarks/}, the {@code java} running this and Temurin 25 where Debian puts it.
 */
public final class StartupRounds {

	private static final String MILESTONE = "startup-milestone ";

	private static final String STEP = "startup-step ";

	private static final long TIMEOUT_MINUTES = 5;

	private final Path kubeconfig;

	private final Settings settings;

	private final ConfigMaps configMaps;

	StartupRounds(Path kubeconfig, Settings settings) throws IOException {
		this.kubeconfig = kubeconfig;
		this.settings = settings;
		this.configMaps = new ConfigMaps(ControllerPeers.informerClient(kubeconfig));
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 1) {
			System.err.println("Usage: StartupRounds KUBECONFIG [objects N] [rounds R] [configurations a,b,...] "
					+ "[app JAR] [josdk JAR] [bare JAR] [baselines JAR,...] [java JAVA] [java25 JAVA|none] [work DIR]");
			System.exit(2);
		}
		Settings settings = Settings.parse(Arrays.copyOfRange(args, 1, args.length));
		new StartupRounds(Path.of(args[0]), settings).run();
		// client-java leaves non-daemon threads behind
		System.exit(0);
	}

	void run() throws Exception {
		Path work = this.settings.work().toAbsolutePath();
		Files.createDirectories(work);
		StartupConfiguration.Paths paths = new StartupConfiguration.Paths(this.settings.app().toAbsolutePath(),
				work.resolve("extracted").resolve(this.settings.app().getFileName()),
				this.settings.josdk().toAbsolutePath(), this.settings.bare().toAbsolutePath(),
				this.settings.baselines().stream().map(Path::toAbsolutePath).toList(), work, this.settings.java(),
				this.settings.java25());
		List<StartupConfiguration> configurations = selected(StartupConfiguration.all(paths));
		System.out.printf("%s: start-up of %d ConfigMaps, %d round(s); %d cores, load %s%n", Instant.now(),
				this.settings.objects(), this.settings.rounds(), Runtime.getRuntime().availableProcessors(), load());
		System.out.println("default JDK: " + version(paths.java()));
		if (paths.java25() != null) {
			System.out.println("JDK 25: " + version(paths.java25()));
		}
		String namespace = "startup-" + System.currentTimeMillis();
		this.configMaps.createNamespace(namespace);
		try {
			long start = System.nanoTime();
			this.configMaps.create(namespace, this.settings.objects());
			System.out.printf(Locale.ROOT, "created %d ConfigMaps of 1 KiB in %s in %.1f s%n", this.settings.objects(),
					namespace, (System.nanoTime() - start) / 1e9);
			Path fabric8 = Fabric8Configs.kubeconfigFor(this.kubeconfig, work.resolve("kubeconfig-fabric8"));
			System.out.println("authentication: " + (fabric8.equals(this.kubeconfig) ? "token" : "client certificate"));
			Map<String, String> environment = Map.of("KUBECONFIG", this.kubeconfig.toAbsolutePath().toString(),
					"STARTUP_NAMESPACE", namespace, "STARTUP_OBJECTS", Integer.toString(this.settings.objects()));
			Map<String, String> fabric8Environment = new LinkedHashMap<>(environment);
			fabric8Environment.put("KUBECONFIG", fabric8.toString());
			if (configurations.stream().anyMatch((configuration) -> configuration.training() != null)) {
				extract(paths);
			}
			List<StartupConfiguration> trained = new ArrayList<>();
			for (StartupConfiguration configuration : configurations) {
				Map<String, String> env = configuration.fabric8() ? fabric8Environment : environment;
				if (configuration.training() == null || train(configuration, work, env)) {
					trained.add(configuration);
				}
			}
			new StartupReport(this.settings.rounds(), this.settings.objects())
				.print(rounds(trained, work, environment, fabric8Environment));
		}
		finally {
			this.configMaps.deleteNamespace(namespace);
		}
	}

	private Map<StartupConfiguration, List<Launch>> rounds(List<StartupConfiguration> configurations, Path work,
			Map<String, String> environment, Map<String, String> fabric8Environment) throws Exception {
		System.out.println("== rounds (ms from the launch of the JVM)");
		for (StartupConfiguration configuration : configurations) {
			System.out.println(configuration.name() + ": " + String.join(" ", configuration.runCommand()));
		}
		Map<StartupConfiguration, List<Launch>> launches = new LinkedHashMap<>();
		configurations.forEach((configuration) -> launches.put(configuration, new ArrayList<>()));
		for (int round = 0; round < this.settings.rounds(); round++) {
			// each round starts with another configuration, so that none always runs
			// first
			for (int i = 0; i < configurations.size(); i++) {
				StartupConfiguration configuration = configurations.get((round + i) % configurations.size());
				String before = load();
				Launch launch = launch(configuration.runCommand(), work,
						configuration.fabric8() ? fabric8Environment : environment);
				String after = load();
				launches.get(configuration).add(launch);
				System.out.println(describe(round, configuration, launch, before, after));
			}
		}
		return launches;
	}

	private String describe(int round, StartupConfiguration configuration, Launch launch, String before, String after) {
		String prefix = String.format(Locale.ROOT, "round %d/%d  %-20s", round + 1, this.settings.rounds(),
				configuration.name());
		if (!launch.isComplete(configuration.end())) {
			return prefix + "  FAILED (exit " + launch.exit() + "), load " + before + " -> " + after + "\n    "
					+ String.join("\n    ", launch.tail());
		}
		return String.format(Locale.ROOT,
				"%s  main %8.1f  refreshed %8.1f  %s %8.1f ms  classes %d  reconciled %d of %d  load %s -> %s", prefix,
				launch.millis("main"), launch.millis("refreshed"), configuration.end(),
				launch.millis(configuration.end()), launch.classes(configuration.end()), this.settings.objects(),
				this.settings.objects(), before, after);
	}

	private boolean train(StartupConfiguration configuration, Path work, Map<String, String> environment)
			throws Exception {
		System.out.println("training " + configuration.name() + " (not measured): "
				+ String.join(" ", configuration.trainingCommand()));
		long start = System.nanoTime();
		Launch launch = launch(configuration.trainingCommand(), work, environment);
		if (launch.exit() != 0) {
			System.out.println("  training FAILED (exit " + launch.exit() + "); " + configuration.name()
					+ " is left out:\n    " + String.join("\n    ", launch.tail()));
			return false;
		}
		System.out.printf(Locale.ROOT, "  trained in %.1f s%n", (System.nanoTime() - start) / 1e9);
		return true;
	}

	private void extract(StartupConfiguration.Paths paths) throws Exception {
		Path destination = paths.extracted().getParent();
		List<String> command = List.of(paths.java().toString(), "-Djarmode=tools", "-jar", paths.app().toString(),
				"extract", "--destination", destination.toString(), "--force");
		System.out.println("extracting: " + String.join(" ", command));
		Launch launch = launch(command, paths.work(), Map.of());
		if (launch.exit() != 0 || !Files.isRegularFile(paths.extracted())) {
			throw new IllegalStateException(
					"could not extract " + paths.app() + ":\n" + String.join("\n", launch.tail()));
		}
	}

	private static Launch launch(List<String> command, Path work, Map<String, String> environment) throws Exception {
		ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
		builder.environment().putAll(environment);
		Map<String, Long> milestones = new LinkedHashMap<>();
		Map<String, Long> classes = new LinkedHashMap<>();
		Map<String, Long> steps = new LinkedHashMap<>();
		Deque<String> tail = new ArrayDeque<>();
		Instant launched = Instant.now();
		Process process = builder.start();
		Thread reader = new Thread(() -> read(process, new Output(milestones, classes, steps, tail)), "startup-output");
		reader.start();
		if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
			process.destroyForcibly().waitFor();
		}
		reader.join();
		return new Launch(micros(launched), milestones, classes, steps, process.exitValue(), List.copyOf(tail));
	}

	private static void read(Process process, Output output) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				String[] fields = line.split(" ");
				if (line.startsWith(MILESTONE)) {
					output.milestones().put(fields[1], Long.parseLong(fields[2]));
					if (fields.length > 4) {
						output.classes().put(fields[1], Long.parseLong(fields[4]));
					}
				}
				else if (line.startsWith(STEP)) {
					output.steps().put(fields[1], Long.parseLong(fields[2]));
					continue;
				}
				output.tail().addLast(line);
				if (output.tail().size() > 30) {
					output.tail().removeFirst();
				}
			}
		}
		catch (IOException ex) {
			output.tail().addLast("(output lost: " + ex + ")");
		}
	}

	private record Output(Map<String, Long> milestones, Map<String, Long> classes, Map<String, Long> steps,
			Deque<String> tail) {

	}

	private List<StartupConfiguration> selected(List<StartupConfiguration> all) {
		if (this.settings.configurations().isEmpty()) {
			return all;
		}
		List<StartupConfiguration> selected = new ArrayList<>();
		for (String name : this.settings.configurations()) {
			selected.add(all.stream()
				.filter((configuration) -> configuration.name().equals(name))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("unknown configuration " + name + "; known: "
						+ all.stream().map(StartupConfiguration::name).toList())));
		}
		return selected;
	}

	private static String version(Path java) throws Exception {
		Launch launch = launch(List.of(java.toString(), "-version"), Path.of("."), Map.of());
		return java + ": " + String.join("; ", launch.tail());
	}

	private static String load() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static long micros(Instant instant) {
		return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
	}

	/**
	 * One process: when it was launched, the milestones it printed, how it exited.
	 *
	 * @param launched the epoch microseconds just before the process started
	 * @param milestones the epoch microseconds of each milestone
	 * @param classes the classes loaded at each milestone
	 * @param steps Spring's start-up steps, in microseconds (see the application's
	 * {@code StartupSteps})
	 * @param exit the exit code
	 * @param tail its last lines of output
	 */
	record Launch(long launched, Map<String, Long> milestones, Map<String, Long> classes, Map<String, Long> steps,
			int exit, List<String> tail) {

		boolean isComplete(String end) {
			return this.exit == 0 && this.milestones.containsKey(end);
		}

		double millis(String milestone) {
			Long at = this.milestones.get(milestone);
			return (at != null) ? (at - this.launched) / 1e3 : Double.NaN;
		}

		long classes(String milestone) {
			return this.classes.getOrDefault(milestone, -1L);
		}

	}

	/**
	 * The settings of a run.
	 *
	 * @param objects the ConfigMaps
	 * @param rounds the rounds
	 * @param configurations the configurations by name, empty for all
	 * @param app the Spring Boot application's jar
	 * @param josdk the Java Operator SDK application's jar
	 * @param bare the bare Spring Boot application's jar
	 * @param baselines other builds of the application's jar, each run beside the plain
	 * jar in the same rounds, as a configuration named after its file
	 * @param java the default JDK's {@code java}
	 * @param java25 a JDK 25's {@code java}, or {@code null} to leave its configurations
	 * out
	 * @param work where the extracted jar, the archives and the caches go
	 */
	record Settings(int objects, int rounds, List<String> configurations, Path app, Path josdk, Path bare,
			List<Path> baselines, Path java, @Nullable Path java25, Path work) {

		static Settings parse(String... args) throws IOException {
			int objects = 1_000;
			int rounds = 5;
			List<String> configurations = List.of();
			Path app = Path.of("benchmarks/startup-app/target/startup-app.jar");
			Path josdk = Path.of("benchmarks/startup-josdk/target/startup-josdk.jar");
			Path bare = Path.of("benchmarks/startup-bare/target/startup-bare.jar");
			List<Path> baselines = List.of();
			Path java = Path.of(System.getProperty("java.home"), "bin", "java");
			Path java25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
			java25 = Files.isExecutable(java25) ? java25 : null;
			Path work = null;
			for (int i = 0; i + 1 < args.length; i += 2) {
				String value = args[i + 1];
				switch (args[i]) {
					case "objects" -> objects = Integer.parseInt(value);
					case "rounds" -> rounds = Integer.parseInt(value);
					case "configurations" -> configurations = List.of(value.split(","));
					case "app" -> app = Path.of(value);
					case "josdk" -> josdk = Path.of(value);
					case "bare" -> bare = Path.of(value);
					case "baselines" -> baselines = Arrays.stream(value.split(",")).map(Path::of).toList();
					case "java" -> java = Path.of(value);
					case "java25" -> java25 = value.equals("none") ? null : Path.of(value);
					case "work" -> work = Path.of(value);
					default -> throw new IllegalArgumentException("unknown setting " + args[i]
							+ "; expected objects, rounds, configurations, app, josdk, bare, baselines, java, java25 or work");
				}
			}
			return new Settings(objects, rounds, configurations, app, josdk, bare, baselines, java, java25,
					(work != null) ? work : Files.createTempDirectory("kube-reconciler-startup"));
		}

	}

}
