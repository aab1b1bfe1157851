package dev.kubereconciler.test.deploy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's loop over the replicas of one application: it refreshes their volumes,
 * probes them, restarts those that must restart, and stops them all.
 */
final class Kubelet {

	private static final Logger logger = LoggerFactory.getLogger(Kubelet.class);

	private static final Duration TICK = Duration.ofMillis(100);

	private static final Duration VOLUME_REFRESH = Duration.ofSeconds(1);

	private final String name;

	private final List<Replica> replicas;

	private final List<PodVolumes> volumes;

	private final Clock clock;

	private final ScheduledExecutorService scheduler;

	private final ExecutorService workers;

	private final Set<Replica> restarting = ConcurrentHashMap.newKeySet();

	// no replica outlives the test JVM, even when a test does not close the application
	private final Thread shutdownHook;

	private Instant nextVolumeRefresh = Instant.MIN;

	Kubelet(String name, List<Replica> replicas, List<PodVolumes> volumes, Clock clock) {
		this.name = name;
		this.replicas = List.copyOf(replicas);
		this.volumes = List.copyOf(volumes);
		this.clock = clock;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> daemon(task, name + "-kubelet"));
		this.workers = Executors.newCachedThreadPool((task) -> daemon(task, name + "-worker"));
		this.shutdownHook = new Thread(() -> this.replicas.forEach(Replica::kill), name + "-shutdown");
	}

	void start() {
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
		this.replicas.forEach(Replica::start);
		this.scheduler.scheduleWithFixedDelay(this::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
	}

	List<Termination> stop() {
		this.scheduler.shutdownNow();
		List<CompletableFuture<Termination>> stops = this.replicas.stream()
			.map((replica) -> CompletableFuture.supplyAsync(replica::stop, this.workers))
			.toList();
		List<Termination> terminations = stops.stream().map(CompletableFuture::join).toList();
		this.workers.shutdownNow();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// the JVM is shutting down, and the hook kills what is left
		}
		logger.info("Stopped {}: {}", this.name, terminations);
		return terminations;
	}

	private void tick() {
		try {
			Instant now = this.clock.instant();
			if (!now.isBefore(this.nextVolumeRefresh)) {
				// a kubelet checks about once a minute; once a second keeps a
				// rotation test short without flooding the server's log with reads
				this.nextVolumeRefresh = now.plus(VOLUME_REFRESH);
				for (PodVolumes podVolumes : this.volumes) {
					podVolumes.refresh();
				}
			}
			for (Replica replica : this.replicas) {
				if (!this.restarting.contains(replica)) {
					String reason = replica.tick(this.clock.instant());
					if (reason != null && this.restarting.add(replica)) {
						restart(replica, reason);
					}
				}
			}
		}
		catch (RuntimeException ex) {
			// the kubelet keeps going too (a Secret may come back); the failure shows in
			// the replicas' state
			logger.warn("Could not update the replicas of {}: {}", this.name, ex.getMessage());
		}
	}

	// on a thread of its own, since the old process may take its whole grace period
	private void restart(Replica replica, String reason) {
		logger.info("Restarting {}: {}", replica, reason);
		this.workers.execute(() -> {
			try {
				replica.restart(reason);
			}
			catch (RuntimeException ex) {
				// the kubelet retries a container it could not start
				logger.warn("Could not restart {}: {}", replica, ex.getMessage());
			}
			finally {
				this.restarting.remove(replica);
			}
		});
	}

	private static Thread daemon(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

}
