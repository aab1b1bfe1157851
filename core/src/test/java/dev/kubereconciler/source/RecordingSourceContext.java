package dev.kubereconciler.source;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.Priorities;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.time.DelayScheduler;
import dev.kubereconciler.time.ManualClock;

/**
 * A source context on a manual clock that runs polls on the clock's thread and records
 * the keys a source adds.
 */
final class RecordingSourceContext implements SourceContext {

	final ManualClock clock = new ManualClock();

	final List<Request> added = new CopyOnWriteArrayList<>();

	// the priority of each added key, in the order of added
	final List<Integer> priorities = new CopyOnWriteArrayList<>();

	final Map<Request, KubernetesObject> cache = new LinkedHashMap<>();

	volatile Predicate<Request> owned = (request) -> true;

	@Override
	public boolean owns(Request request) {
		return this.owned.test(request);
	}

	@Override
	public String controller() {
		return "widget";
	}

	@Override
	public void add(Request request) {
		add(request, Priorities.NORMAL);
	}

	@Override
	public void add(Request request, int priority) {
		this.added.add(request);
		this.priorities.add(priority);
	}

	@Override
	public List<Request> cachedKeys() {
		return new ArrayList<>(this.cache.keySet());
	}

	@Override
	public @Nullable KubernetesObject cached(Request request) {
		return this.cache.get(request);
	}

	@Override
	public DelayScheduler clock() {
		return this.clock;
	}

	@Override
	public Executor executor() {
		return Runnable::run;
	}

	Request cache(String namespace, String name) {
		Request key = new Request(namespace, name);
		this.cache.put(key, new V1ConfigMap().metadata(new V1ObjectMeta().namespace(namespace).name(name)));
		return key;
	}

}
