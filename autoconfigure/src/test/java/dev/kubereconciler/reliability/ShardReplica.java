package dev.kubereconciler.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.sharding.PartitionHoldListener;

/**
 * One replica of the sharding scenario, run in its own JVM: a sharded controller that
 * writes when each reconcile starts and ends, with {@link System#nanoTime()} (one
 * monotonic clock for every process of the machine), to a journal file that the test
 * reads.
 */
public final class ShardReplica {

	static final Duration LEASE_DURATION = Duration.ofSeconds(10);

	static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

	private ShardReplica() {
	}

	/**
	 * Run a replica until the process ends.
	 * @param args the kubeconfig, the namespace, the journal file and the replica's name,
	 * then {@code --property=value} arguments that override the defaults below
	 */
	public static void main(String[] args) {
		ConfigurableApplicationContext context = ReplicaJvm.run(Application.class, Path.of(args[0]), Path.of(args[2]),
				args[3],
				List.of("kube-reconciler.controllers.sharded.namespaces=" + args[1],
						"kube-reconciler.sharding.enabled=true", "kube-reconciler.sharding.lease-prefix=scenario",
						"kube-reconciler.sharding.lease-namespace=" + args[1],
						"kube-reconciler.sharding.lease-duration=" + LEASE_DURATION.toMillis() + "ms",
						"kube-reconciler.sharding.renew-deadline=6s",
						"kube-reconciler.sharding.retry-period=" + RETRY_PERIOD.toMillis() + "ms",
						"kube-reconciler.defaults.reconcile-timeout=3s",
						"kube-reconciler.defaults.max-concurrent-reconciles=4", "kube-reconciler.shutdown-timeout=2s"),
				Arrays.copyOfRange(args, 4, args.length));
		String identity = context.getBean(ManagedControllers.class)
			.getManager()
			.shardCoordinator()
			.settings()
			.identity();
		context.getBean(Journal.class).write("identity", identity);
	}

	@Configuration(proxyBeanMethods = false)
	static class Application {

		@Bean
		Journal journal(Environment environment) {
			return new Journal(environment);
		}

		// looked up, not injected: a SmartLifecycle that depends on ManagedControllers is
		// stopped with it and counts down its phase's latch, so that Spring would no
		// longer wait for the manager's asynchronous stop and its graceful leave
		@Bean
		SmartLifecycle partitionJournal(ApplicationContext context, Journal journal) {
			return new PartitionJournal(() -> context.getBean(ManagedControllers.class), journal);
		}

	}

	/**
	 * Journals, with {@link System#nanoTime()}, when this replica starts and stops
	 * holding each partition: {@code acquire}, {@code release} (handed over) or
	 * {@code lost}. The table calls it under the partition's lock, so an {@code acquire}
	 * precedes every reconcile of the partition here and a {@code release} follows them.
	 * Started just before the manager, so that it sees the first acquisitions.
	 */
	static final class PartitionJournal implements SmartLifecycle {

		private final Supplier<ManagedControllers> controllers;

		private final Journal journal;

		private volatile boolean running;

		PartitionJournal(Supplier<ManagedControllers> controllers, Journal journal) {
			this.controllers = controllers;
			this.journal = journal;
		}

		@Override
		public void start() {
			this.controllers.get().getManager().shardCoordinator().table().holdListener(new PartitionHoldListener() {

				@Override
				public void held(int partition) {
					PartitionJournal.this.journal.write("acquire", String.valueOf(partition));
				}

				@Override
				public void freed(int partition, boolean lost) {
					PartitionJournal.this.journal.write(lost ? "lost" : "release", String.valueOf(partition));
				}

			});
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return ManagedControllers.PHASE - 1;
		}

	}

	/**
	 * Journals when each reconcile starts and ends.
	 */
	static final class Journal extends ReplicaJvm.Journal {

		private final Duration work;

		Journal(Environment environment) {
			super(environment);
			this.work = Duration.ofMillis(environment.getProperty("reconcile-millis", Long.class, 10L));
		}

		@Reconciler(name = "sharded", watches = V1ConfigMap.class)
		void reconcile(Request request) {
			write("start", request.name());
			// some work, so that overlapping reconciles of two replicas would show
			LockSupport.parkNanos(this.work.toNanos());
			write("end", request.name());
		}

	}

}
