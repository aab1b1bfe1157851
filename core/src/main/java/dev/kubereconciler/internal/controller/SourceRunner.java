package dev.kubereconciler.internal.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.internal.cache.KeySink;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.source.Source;
import dev.kubereconciler.source.SourceContext;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Starts and stops one controller's sources with its workers. Each source runs on a
 * thread of its own, so that a poll that hangs holds up no other source, and its keys go
 * to the controller's queue through the key sink that watch events take, counted by
 * source on the listener.
 */
final class SourceRunner {

	private static final Logger logger = LoggerFactory.getLogger(SourceRunner.class);

	private final String controller;

	private final List<Source> sources;

	private final KeySink keys;

	private final ControllerListener listener;

	private final DelayScheduler clock;

	private final ThreadFactory threadFactory;

	private final List<Running> running = new ArrayList<>();

	private volatile Supplier<? extends List<Request>> cachedKeys = List::of;

	private volatile Function<Request, @Nullable KubernetesObject> cached = (request) -> null;

	private final Predicate<Request> owned;

	SourceRunner(String controller, List<Source> sources, KeySink keys, Predicate<Request> owned,
			ControllerListener listener, DelayScheduler clock, ThreadFactory threadFactory) {
		this.controller = controller;
		this.owned = owned;
		this.sources = sources;
		this.keys = keys;
		this.listener = listener;
		this.clock = clock;
		this.threadFactory = threadFactory;
	}

	void cache(Supplier<? extends List<Request>> cachedKeys, Function<Request, @Nullable KubernetesObject> cached) {
		this.cachedKeys = cachedKeys;
		this.cached = cached;
	}

	List<Request> cachedKeys() {
		return this.cachedKeys.get();
	}

	/**
	 * Start every source; the caller holds the controller's lifecycle monitor.
	 */
	void start() {
		for (Source source : this.sources) {
			Running context = new Running(source.name(), Executors.newSingleThreadExecutor(this.threadFactory));
			try {
				source.start(context);
				this.running.add(context);
			}
			catch (RuntimeException ex) {
				context.executor.shutdownNow();
				logger.error("Source '{}' of controller '{}' failed to start", source.name(), this.controller, ex);
			}
		}
	}

	/**
	 * Stop every source and interrupt a poll that still runs; the caller holds the
	 * controller's lifecycle monitor.
	 */
	void stop() {
		for (Source source : this.sources) {
			try {
				source.stop();
			}
			catch (RuntimeException ex) {
				logger.warn("Source '{}' of controller '{}' failed to stop", source.name(), this.controller, ex);
			}
		}
		this.running.forEach((context) -> context.executor.shutdownNow());
		this.running.clear();
	}

	void added(String source) {
		this.listener.sourceKeyAdded(this.controller, source);
	}

	private final class Running implements SourceContext {

		private final String source;

		private final ExecutorService executor;

		Running(String source, ExecutorService executor) {
			this.source = source;
			this.executor = executor;
		}

		@Override
		public String controller() {
			return SourceRunner.this.controller;
		}

		@Override
		public void add(Request request) {
			SourceRunner.this.keys.add(request);
			added(this.source);
		}

		@Override
		public void add(Request request, int priority) {
			SourceRunner.this.keys.add(request, priority);
			added(this.source);
		}

		@Override
		public boolean owns(Request request) {
			return SourceRunner.this.owned.test(request);
		}

		@Override
		public List<Request> cachedKeys() {
			return SourceRunner.this.cachedKeys.get();
		}

		@Override
		public @Nullable KubernetesObject cached(Request request) {
			return SourceRunner.this.cached.apply(request);
		}

		@Override
		public DelayScheduler clock() {
			return SourceRunner.this.clock;
		}

		@Override
		public ExecutorService executor() {
			return this.executor;
		}

	}

}
