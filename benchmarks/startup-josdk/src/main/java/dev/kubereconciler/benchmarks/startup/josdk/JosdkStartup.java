package dev.kubereconciler.benchmarks.startup.josdk;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * Java Operator SDK's plain {@link Operator} with one no-op {@link Reconciler} on the
 * ConfigMaps of one namespace, which prints the moments of its start-up as the Spring
 * Boot application does and exits once every expected ConfigMap had its first reconcile.
 *
 * <p>
 * It reads the namespace and the count from {@code STARTUP_NAMESPACE} and
 * {@code STARTUP_OBJECTS}, and the cluster from {@code KUBECONFIG}, as fabric8 does by
 * default. Its milestones are named as the Spring application's: {@code beans} once the
 * reconciler is registered, {@code refreshed} and {@code synced} once {@code start()}
 * returned (the informers synced).
 */
public final class JosdkStartup {

	private static final String PREFIX = "startup-milestone ";

	private JosdkStartup() {
	}

	public static void main(String[] args) {
		reached("main");
		String namespace = System.getenv().getOrDefault("STARTUP_NAMESPACE", "default");
		int objects = Integer.parseInt(System.getenv().getOrDefault("STARTUP_OBJECTS", "1000"));
		Operator operator = new Operator();
		// ConfigMaps carry no metadata.generation, as in the whole-controller peers
		operator.register(new FirstReconciles(objects),
				(overrider) -> overrider.settingNamespace(namespace).withGenerationAware(false));
		reached("beans");
		operator.start();
		reached("synced");
		reached("refreshed");
	}

	// the same line as the Spring application's Milestones, which this jar must not carry
	static void reached(String name) {
		Instant now = Instant.now();
		long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
		long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		long sinceStart = ProcessHandle.current()
			.info()
			.startInstant()
			.map((start) -> (micros - start.toEpochMilli() * 1_000L) / 1_000L)
			.orElse(-1L);
		System.out.println(PREFIX + name + " " + micros + " " + sinceStart + " " + classes);
	}

	/**
	 * The reconciler: records each ConfigMap's first reconcile.
	 */
	static final class FirstReconciles implements Reconciler<ConfigMap> {

		private final Set<String> seen = ConcurrentHashMap.newKeySet();

		private final AtomicInteger count = new AtomicInteger();

		private final int objects;

		FirstReconciles(int objects) {
			this.objects = objects;
		}

		@Override
		public UpdateControl<ConfigMap> reconcile(ConfigMap configMap, Context<ConfigMap> context) {
			if (!this.seen.add(configMap.getMetadata().getName())) {
				return UpdateControl.noUpdate();
			}
			int count = this.count.incrementAndGet();
			if (count == 1) {
				reached("first-first-reconcile");
			}
			if (count == this.objects) {
				reached("last-first-reconcile");
				new Thread(() -> System.exit(0), "startup-exit").start();
			}
			return UpdateControl.noUpdate();
		}

	}

}
