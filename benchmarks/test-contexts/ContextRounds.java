import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs the given test classes in this order in one JVM and prints, for each class, its
 * wall time and the CPU time of the thread that ran it (the context's refresh runs on
 * it), so that the time of the second and later test contexts of a JVM can be read
 * beside the log's "refreshed in" lines. Run by benchmarks/test-contexts.sh.
 */
public class ContextRounds {

	public static void main(String[] args) {
		LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
		for (String name : args) {
			request.selectors(selectClass(name));
		}
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<String, long[]> started = new HashMap<>();
		boolean[] failed = { false };
		TestExecutionListener timing = new TestExecutionListener() {

			@Override
			public void executionStarted(TestIdentifier id) {
				started.put(id.getUniqueId(), new long[] { System.nanoTime(), threads.getCurrentThreadCpuTime() });
			}

			@Override
			public void executionFinished(TestIdentifier id, TestExecutionResult result) {
				long[] start = started.get(id.getUniqueId());
				if (id.isContainer() && id.getDisplayName().endsWith("Tests")) {
					System.out.printf("CLASS %s %s wall %d ms, main thread CPU %d ms%n", id.getDisplayName(),
							result.getStatus(), (System.nanoTime() - start[0]) / 1_000_000,
							(threads.getCurrentThreadCpuTime() - start[1]) / 1_000_000);
				}
				result.getThrowable().ifPresent((ex) -> {
					failed[0] = true;
					ex.printStackTrace();
				});
			}

		};
		Launcher launcher = LauncherFactory.create();
		launcher.execute(request.build(), timing);
		System.out.flush();
		// client-java's informer threads are not daemons; surefire ends its JVM the same way
		System.exit(failed[0] ? 1 : 0);
	}

}
