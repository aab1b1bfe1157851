package dev.kubereconciler.test;

import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.kubereconciler.test.gc.GarbageCollector;

/**
 * The one {@link GarbageCollector} of the shared server, started by the first
 * {@link KubernetesTest} class that wants it and stopped with the JVM, as the server is;
 * the namespaces of classes that turn it off are left alone.
 */
final class SharedGarbageCollector {

	/** The JUnit configuration parameter that turns the collector off for a whole run. */
	static final String ENABLED = "kube-reconciler-test.garbage-collection.enabled";

	private static final SharedGarbageCollector INSTANCE = new SharedGarbageCollector();

	private final Set<String> ignored = new LinkedHashSet<>();

	private @Nullable GarbageCollector collector;

	private SharedGarbageCollector() {
	}

	/**
	 * Whether the class wants garbage collected: its annotation's
	 * {@link KubernetesTest#garbageCollection()}, unless the run turns it off.
	 */
	static boolean wanted(ExtensionContext context, Class<?> testClass) {
		if (!context.getConfigurationParameter(ENABLED, Boolean::parseBoolean).orElse(true)) {
			return false;
		}
		for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
			KubernetesTest test = AnnotationSupport.findAnnotation(type, KubernetesTest.class).orElse(null);
			if (test != null) {
				return test.garbageCollection();
			}
		}
		return true;
	}

	static void apply(KubernetesTestServer server, TestNamespace namespace, boolean wanted) {
		INSTANCE.register(server, namespace, wanted);
	}

	private synchronized void register(KubernetesTestServer server, TestNamespace namespace, boolean wanted) {
		if (!wanted) {
			this.ignored.add(namespace.name());
			if (this.collector != null) {
				this.collector.ignoreNamespace(namespace.name());
			}
			return;
		}
		if (this.collector == null) {
			GarbageCollector started = GarbageCollector.start(server.apiClient());
			this.ignored.forEach(started::ignoreNamespace);
			// its threads are daemons; this only keeps its watches from complaining about
			// a server that stops first
			Runtime.getRuntime().addShutdownHook(new Thread(started::close, "garbage-collector-shutdown"));
			this.collector = started;
		}
	}

}
