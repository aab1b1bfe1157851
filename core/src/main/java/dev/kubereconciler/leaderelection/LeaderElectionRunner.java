package dev.kubereconciler.leaderelection;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs client-java's {@link LeaderElector} on a Lease in a loop: when leadership is lost,
 * the controllers stop at once and this instance becomes a candidate again. Each term
 * first prepares (a cold standby syncs its caches there), then starts leading; a term
 * that cannot prepare gives the Lease up.
 */
public final class LeaderElectionRunner {

	private static final Logger logger = LoggerFactory.getLogger(LeaderElectionRunner.class);

	private final ApiClient apiClient;

	private final LeaderElectionSettings settings;

	private final ThreadFactory threadFactory;

	private final Predicate<BooleanSupplier> prepareLeading;

	private final Runnable onStartLeading;

	private final Runnable onStopLeading;

	private volatile boolean running;

	private volatile @Nullable LeaderElector elector;

	private @Nullable Thread thread;

	/**
	 * Create a runner.
	 * @param prepareLeading runs when a term begins, before {@code onStartLeading}, and
	 * is told whether the term still lasts; it returns {@code false} when it could not
	 * prepare, and the Lease is then given up
	 * @param onStartLeading starts the controllers
	 * @param onStopLeading stops them
	 */
	public LeaderElectionRunner(ApiClient apiClient, LeaderElectionSettings settings, ThreadFactory threadFactory,
			Predicate<BooleanSupplier> prepareLeading, Runnable onStartLeading, Runnable onStopLeading) {
		this.apiClient = apiClient;
		this.settings = settings;
		this.threadFactory = threadFactory;
		this.prepareLeading = prepareLeading;
		this.onStartLeading = onStartLeading;
		this.onStopLeading = onStopLeading;
	}

	public void start() {
		this.running = true;
		this.thread = this.threadFactory.newThread(this::loop);
		this.thread.setName("kube-reconciler-leader-election");
		this.thread.start();
	}

	private void loop() {
		while (this.running) {
			LeaseLock lock = new LeaseLock(this.settings.leaseNamespace(), this.settings.leaseName(),
					this.settings.identity(), this.apiClient);
			LeaderElectionConfig config = new LeaderElectionConfig(lock, this.settings.timing().leaseDuration(),
					this.settings.timing().renewDeadline(), this.settings.timing().retryPeriod());
			LeaderElector elector = new LeaderElector(config,
					(ex) -> logger.warn("Leader election on Lease {}/{} failed", this.settings.leaseNamespace(),
							this.settings.leaseName(), ex));
			this.elector = elector;
			// client-java runs the start hook on another thread, so it could run
			// after the stop hook of the same term; a term that ended never starts
			// the controllers
			Object term = new Object();
			AtomicBoolean ended = new AtomicBoolean();
			Runnable start = () -> {
				// preparing may take as long as a cache sync, so it holds no lock: a lost
				// Lease ends the term meanwhile, and preparing gives up
				if (!this.prepareLeading.test(() -> this.running && !ended.get())) {
					if (this.running && !ended.get()) {
						resign(elector);
					}
					return;
				}
				synchronized (term) {
					if (!ended.get()) {
						this.onStartLeading.run();
					}
				}
			};
			Runnable stop = () -> {
				synchronized (term) {
					ended.set(true);
					this.onStopLeading.run();
				}
			};
			try {
				elector.run(start, stop);
			}
			catch (RuntimeException ex) {
				logger.warn("Leader election loop ended with an error; retrying", ex);
			}
			finally {
				elector.close();
			}
		}
	}

	/**
	 * Give the Lease up and become a candidate again. Closing the elector ends its renew
	 * loop, and so the term; it waits for the hook thread, so it runs on a thread of its
	 * own.
	 */
	private void resign(LeaderElector elector) {
		logger.warn("Giving up the Lease {}/{} until the next election", this.settings.leaseNamespace(),
				this.settings.leaseName());
		Thread thread = this.threadFactory.newThread(elector::close);
		thread.setName("kube-reconciler-leader-resign");
		thread.start();
	}

	public void stop() {
		this.running = false;
		LeaderElector elector = this.elector;
		if (elector != null) {
			elector.close();
		}
		Thread thread = this.thread;
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.settings.timing().retryPeriod().toMillis() * 2 + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
