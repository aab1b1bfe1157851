package dev.kubereconciler.benchmarks.startup;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;

/**
 * The minimal application of the start-up benchmark: one controller on the ConfigMaps of
 * one namespace, which exits once the last of them had its first reconcile.
 *
 * <p>
 * It records Spring's start-up steps as an application does for Actuator's
 * {@code startup} endpoint, with a {@link BufferingApplicationStartup}, and
 * {@link StartupSteps} prints them at the end.
 */
@SpringBootApplication
public class StartupApplication {

	/** Room for every step of this application's start-up (about 2,000). */
	static final int STEPS = 20_000;

	public static void main(String[] args) {
		Milestones.reached("main");
		SpringApplication application = new SpringApplication(StartupApplication.class);
		application.setApplicationStartup(new BufferingApplicationStartup(STEPS));
		application.run(args);
	}

}
