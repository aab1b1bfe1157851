package dev.kubereconciler.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One way of starting an application in the start-up benchmark: the JVM, the flags, and
 * the training run that builds its archive first, if it has one.
 *
 * @param name the short name, as given on the command line
 * @param label what the report calls it
 * @param java the {@code java} launcher
 * @param training the arguments of the training run, after {@code java}; {@code null}
 * when there is none
 * @param run the arguments of a measured run, after {@code java}
 * @param fabric8 whether the process reads the kubeconfig that fabric8 can read
 * @param ours whether it is one of ours, which the ratio to the plain jar ranks
 * @param end the milestone that ends a run: the last first reconcile, or for the bare
 * application its list
 */
record StartupConfiguration(String name, String label, Path java, @Nullable List<String> training, List<String> run,
		boolean fabric8, boolean ours, String end) {

	/** The milestone that ends a run of a controller: the last first reconcile. */
	static final String LAST = "last-first-reconcile";

	/** The milestone that ends a run of the bare application: its list answered. */
	static final String LISTED = "listed";

	StartupConfiguration(String name, String label, Path java, @Nullable List<String> training, List<String> run,
			boolean fabric8, boolean ours) {
		this(name, label, java, training, run, fabric8, ours, LAST);
	}

	/** The Spring Boot property that ends a training run once the context refreshed. */
	static final String EXIT_ON_REFRESH = "-Dspring.context.exit=onRefresh";

	/** The flag that runs the Spring AOT initializer. */
	static final String SPRING_AOT = "-Dspring.aot.enabled=true";

	/**
	 * The paths the configurations use.
	 *
	 * @param app the repackaged Spring Boot jar
	 * @param extracted the jar that {@code java -Djarmode=tools -jar app extract} wrote,
	 * with its {@code lib/} next to it, which CDS and the AOT cache need
	 * @param josdk the Java Operator SDK jar
	 * @param bare the bare Spring Boot application's jar
	 * @param baselines other builds of the application's jar, each run as the plain jar
	 * is for an A/B comparison in the same rounds, named after its file
	 * @param work where the archives go
	 * @param java the default JDK's {@code java}
	 * @param java25 a JDK 25's {@code java}, or {@code null} for none
	 */
	record Paths(Path app, Path extracted, Path josdk, Path bare, List<Path> baselines, Path work, Path java,
			@Nullable Path java25) {

	}

	/**
	 * Every configuration, in the order of the report; those on JDK 25 only when one is
	 * given.
	 * @param paths the paths
	 * @return the configurations
	 */
	static List<StartupConfiguration> all(Paths paths) {
		String app = paths.app().toString();
		String extracted = paths.extracted().toString();
		List<StartupConfiguration> all = new ArrayList<>();
		all.add(new StartupConfiguration("plain", "plain jar, default JDK", paths.java(), null, List.of("-jar", app),
				false, true));
		for (Path baseline : paths.baselines()) {
			String file = baseline.getFileName().toString();
			all.add(new StartupConfiguration(file.replaceFirst("\\.jar$", ""), "plain jar of another build, " + file,
					paths.java(), null, List.of("-jar", baseline.toString()), false, false));
		}
		all.add(cds(paths, "cds", "CDS (trained to refresh), no Spring AOT", List.of(EXIT_ON_REFRESH), List.of()));
		all.add(cds(paths, "aot-cds", "Spring AOT + CDS (trained to refresh)", List.of(SPRING_AOT, EXIT_ON_REFRESH),
				List.of(SPRING_AOT)));
		all.add(cds(paths, "aot-cds-run", "Spring AOT + CDS (trained by a whole run)", List.of(SPRING_AOT),
				List.of(SPRING_AOT)));
		Path java25 = paths.java25();
		if (java25 != null) {
			all.add(new StartupConfiguration("jdk25", "plain jar, JDK 25", java25, null, List.of("-jar", app), false,
					true));
			all.add(aotCache(paths, java25, "jdk25-aot-cache", "JDK 25 AOT cache + Spring AOT (trained to refresh)",
					List.of(EXIT_ON_REFRESH)));
			all.add(aotCache(paths, java25, "jdk25-aot-cache-run",
					"JDK 25 AOT cache + Spring AOT (trained by a whole run)", List.of()));
		}
		all.add(new StartupConfiguration("josdk", "Java Operator SDK, plain jar, default JDK", paths.java(), null,
				List.of("-jar", paths.josdk().toString()), true, false));
		all.add(new StartupConfiguration("bare", "bare Spring Boot + Actuator, client-java's list", paths.java(), null,
				List.of("-jar", paths.bare().toString()), false, false, LISTED));
		return all;
	}

	// -Xshare:on fails the run when the archive cannot be used, where the default would
	// quietly measure a JVM without it
	private static StartupConfiguration cds(Paths paths, String name, String label, List<String> training,
			List<String> run) {
		String archive = paths.work().resolve(name + ".jsa").toString();
		List<String> train = new ArrayList<>(List.of("-XX:ArchiveClassesAtExit=" + archive));
		train.addAll(training);
		train.addAll(List.of("-jar", paths.extracted().toString()));
		List<String> measured = new ArrayList<>(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on"));
		measured.addAll(run);
		measured.addAll(List.of("-jar", paths.extracted().toString()));
		return new StartupConfiguration(name, label, paths.java(), train, measured, false, true);
	}

	// -XX:AOTMode=on fails the run when the cache cannot be used, as -Xshare:on does
	private static StartupConfiguration aotCache(Paths paths, Path java25, String name, String label,
			List<String> training) {
		String cache = paths.work().resolve(name + ".aot").toString();
		List<String> train = new ArrayList<>(List.of("-XX:AOTCacheOutput=" + cache, SPRING_AOT));
		train.addAll(training);
		train.addAll(List.of("-jar", paths.extracted().toString()));
		List<String> measured = List.of("-XX:AOTCache=" + cache, "-XX:AOTMode=on", SPRING_AOT, "-jar",
				paths.extracted().toString());
		return new StartupConfiguration(name, label, java25, train, measured, false, true);
	}

	/**
	 * Return the command line of a training run.
	 * @return the command, or an empty list when there is no training
	 */
	List<String> trainingCommand() {
		return (this.training != null) ? command(this.training) : List.of();
	}

	/**
	 * Return the command line of a measured run.
	 * @return the command
	 */
	List<String> runCommand() {
		return command(this.run);
	}

	private List<String> command(List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(this.java.toString());
		command.addAll(arguments);
		return command;
	}

}
