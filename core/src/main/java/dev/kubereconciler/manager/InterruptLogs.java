package dev.kubereconciler.manager;

/**
 * Quiets the ERROR lines client-java logs when the manager interrupts its threads,
 * through {@link InterruptLogFilter} when Logback is on the class path. This class names
 * no Logback type, so that it loads without Logback, which is an optional dependency.
 */
final class InterruptLogs {

	private static final boolean LOGBACK = isPresent("ch.qos.logback.classic.turbo.TurboFilter");

	private InterruptLogs() {
	}

	/**
	 * Install the filter, once, if Logback is the logging backend.
	 */
	static void quiet() {
		if (LOGBACK) {
			InterruptLogFilter.install();
		}
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, InterruptLogs.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
