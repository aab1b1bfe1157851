package dev.kubereconciler.benchmarks;

import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import dev.kubereconciler.reconcile.Request;

/**
 * Realistic work-queue keys for both engines, built before anything is measured, and the
 * daemon threads the benchmarks run their executors on.
 */
final class Keys {

	// A few dozen namespaces, as in a real cluster, whose strings all keys share.
	private static final List<String> NAMESPACES = IntStream.range(0, 64).mapToObj((i) -> "team-" + i).toList();

	private Keys() {
	}

	/**
	 * Return distinct keys of our engine.
	 * @param prefix a prefix of every name, so that threads can have disjoint keys
	 * @param count how many keys
	 * @return the keys
	 */
	static Request[] ours(String prefix, int count) {
		Request[] keys = new Request[count];
		for (int i = 0; i < count; i++) {
			keys[i] = new Request(namespace(i), name(prefix, i));
		}
		return keys;
	}

	/**
	 * Return distinct keys of client-java's controller, equal in content to
	 * {@link #ours}.
	 * @param prefix a prefix of every name
	 * @param count how many keys
	 * @return the keys
	 */
	static io.kubernetes.client.extended.controller.reconciler.Request[] clientJava(String prefix, int count) {
		io.kubernetes.client.extended.controller.reconciler.Request[] keys = new io.kubernetes.client.extended.controller.reconciler.Request[count];
		for (int i = 0; i < count; i++) {
			keys[i] = new io.kubernetes.client.extended.controller.reconciler.Request(namespace(i), name(prefix, i));
		}
		return keys;
	}

	private static String namespace(int i) {
		return NAMESPACES.get(i % NAMESPACES.size());
	}

	private static String name(String prefix, int i) {
		return prefix + "config-" + i;
	}

	/**
	 * Return a factory of daemon threads, so that an executor a benchmark forgets to stop
	 * cannot keep the forked JVM alive.
	 * @param name the thread name prefix
	 * @return the factory
	 */
	static ThreadFactory daemonThreads(String name) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
