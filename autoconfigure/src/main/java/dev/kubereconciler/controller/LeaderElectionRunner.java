package dev.kubereconciler.controller;

import java.util.concurrent.ThreadFactory;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs client-java's {@link LeaderElector} on a Lease in a loop: when leadership is lost,
 * the controllers stop at once and this instance becomes a candidate again.
 */
final class LeaderElectionRunner {

	private static final Logger logger = LoggerFactory.getLogger(LeaderElectionRunner.class);

	private final ApiClient apiClient;

	private final LeaderElectionSettings settings;

	private final ThreadFactory threadFactory;

	private final Runnable onStartLeading;

	private final Runnable onStopLeading;

	private volatile boolean running;

	private volatile LeaderElector elector;

	private Thread thread;

	LeaderElectionRunner(ApiClient apiClient, LeaderElectionSettings settings, ThreadFactory threadFactory,
			Runnable onStartLeading, Runnable onStopLeading) {
		this.apiClient = apiClient;
		this.settings = settings;
		this.threadFactory = threadFactory;
		this.onStartLeading = onStartLeading;
		this.onStopLeading = onStopLeading;
	}

	void start() {
		this.running = true;
		this.thread = this.threadFactory.newThread(this::loop);
		this.thread.setName("kube-reconciler-leader-election");
		this.thread.start();
	}

	private void loop() {
		while (this.running) {
			LeaseLock lock = new LeaseLock(this.settings.leaseNamespace(), this.settings.leaseName(),
					this.settings.identity(), this.apiClient);
			LeaderElectionConfig config = new LeaderElectionConfig(lock, this.settings.leaseDuration(),
					this.settings.renewDeadline(), this.settings.retryPeriod());
			LeaderElector elector = new LeaderElector(config,
					(ex) -> logger.warn("Leader election on Lease {}/{} failed", this.settings.leaseNamespace(),
							this.settings.leaseName(), ex));
			this.elector = elector;
			// client-java runs the start hook on another thread, so it could run after
			// the
			// stop hook of the same term; a term that ended never starts the controllers
			Object term = new Object();
			boolean[] ended = { false };
			Runnable start = () -> {
				synchronized (term) {
					if (!ended[0]) {
						this.onStartLeading.run();
					}
				}
			};
			Runnable stop = () -> {
				synchronized (term) {
					ended[0] = true;
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

	void stop() {
		this.running = false;
		LeaderElector elector = this.elector;
		if (elector != null) {
			elector.close();
		}
		Thread thread = this.thread;
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(this.settings.retryPeriod().toMillis() * 2 + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
