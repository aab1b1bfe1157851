package dev.kubereconciler.webhook.server;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The threads that answer a {@link WebhookServer}'s requests: the caller's executor, or a
 * pool of the server's own, made at each start and shut down at each stop.
 */
final class RequestThreads {

	private final @Nullable Executor executor;

	private final int threads;

	private final ThreadFactory threadFactory;

	private @Nullable ThreadPoolExecutor ownExecutor;

	RequestThreads(@Nullable Executor executor, int threads, ThreadFactory threadFactory) {
		this.executor = executor;
		this.threads = threads;
		this.threadFactory = threadFactory;
	}

	synchronized Executor start() {
		if (this.executor != null) {
			return this.executor;
		}
		AtomicInteger count = new AtomicInteger();
		ThreadPoolExecutor executor = new ThreadPoolExecutor(this.threads, this.threads, 1, TimeUnit.MINUTES,
				new LinkedBlockingQueue<>(), (runnable) -> {
					Thread thread = this.threadFactory.newThread(runnable);
					thread.setName("kube-reconciler-webhook-" + count.incrementAndGet());
					return thread;
				});
		// admission requests come in bursts; idle threads need not wait for the next
		executor.allowCoreThreadTimeOut(true);
		this.ownExecutor = executor;
		return executor;
	}

	void stop() {
		ThreadPoolExecutor ownExecutor;
		synchronized (this) {
			ownExecutor = this.ownExecutor;
			this.ownExecutor = null;
		}
		if (ownExecutor != null) {
			ownExecutor.shutdown();
		}
	}

}
