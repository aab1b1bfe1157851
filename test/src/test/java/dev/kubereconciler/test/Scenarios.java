package dev.kubereconciler.test;

import java.util.List;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.launcher.listeners.TestExecutionSummary.Failure;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs a scenario class, a test class that is meant to fail, inside a test, so that the
 * test can check how it fails. A scenario class is annotated with
 * {@code @EnabledIf(Scenarios.LAUNCHED)}, so that it runs only from here.
 */
final class Scenarios {

	/** The condition of a scenario class. */
	static final String LAUNCHED = "dev.kubereconciler.test.Scenarios#launched";

	private static final String PARAMETER = "kube-reconciler.test.scenario";

	private Scenarios() {
	}

	static boolean launched(ExtensionContext context) {
		return context.getConfigurationParameter(PARAMETER).isPresent();
	}

	/**
	 * Run a scenario class.
	 * @param scenario the class
	 * @return the summary, with at least one test or container run
	 */
	static TestExecutionSummary run(Class<?> scenario) {
		LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
			.selectors(selectClass(scenario))
			.configurationParameter(PARAMETER, "true")
			.build();
		Launcher launcher = LauncherFactory.create();
		SummaryGeneratingListener listener = new SummaryGeneratingListener();
		launcher.execute(request, listener);
		TestExecutionSummary summary = listener.getSummary();
		if (summary.getTestsStartedCount() == 0 && summary.getContainersFailedCount() == 0) {
			throw new IllegalStateException("The scenario " + scenario.getName() + " ran nothing");
		}
		return summary;
	}

	/**
	 * Return the messages of a run's failures, with their causes'.
	 * @param summary the run
	 * @return the messages
	 */
	static List<String> failures(TestExecutionSummary summary) {
		return summary.getFailures().stream().map(Failure::getException).map(Scenarios::messages).toList();
	}

	private static String messages(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			messages.append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

}
