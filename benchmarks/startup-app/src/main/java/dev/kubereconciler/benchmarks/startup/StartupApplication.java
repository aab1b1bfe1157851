package dev.kubereconciler.benchmarks.startup;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The minimal application of the start-up benchmark: one controller on the ConfigMaps of
 * one namespace, which exits once the last of them had its first reconcile.
 */
@SpringBootApplication
public class StartupApplication {

	public static void main(String[] args) {
		Milestones.reached("main");
		SpringApplication.run(StartupApplication.class, args);
	}

}
