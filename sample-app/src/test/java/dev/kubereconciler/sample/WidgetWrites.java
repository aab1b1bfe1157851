package dev.kubereconciler.sample;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.widget.Widget;

/**
 * A steady stream of Widget creates, one after the other until closed, each through the
 * webhooks, counting what was admitted and keeping every refusal.
 */
final class WidgetWrites implements AutoCloseable {

	private final GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets;

	private final AtomicInteger admitted = new AtomicInteger();

	private final List<String> refusals = new CopyOnWriteArrayList<>();

	private final ExecutorService writer = Executors.newSingleThreadExecutor();

	private volatile boolean closed;

	WidgetWrites(GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets) {
		this.widgets = widgets;
		this.writer.execute(this::write);
	}

	int admitted() {
		return this.admitted.get();
	}

	List<String> refusals() {
		return List.copyOf(this.refusals);
	}

	private void write() {
		for (int i = 1; !this.closed; i++) {
			String name = "stream-" + i;
			try {
				KubernetesApiResponse<Widget> created = this.widgets
					.create(TestObjects.widget("default", name, "Yellow", 1 + i % 50));
				if (created.isSuccess()) {
					this.admitted.incrementAndGet();
				}
				else {
					this.refusals
						.add(name + ": " + created.getHttpStatusCode() + " " + created.getStatus().getMessage());
				}
			}
			catch (RuntimeException ex) {
				this.refusals.add(name + ": " + ex);
			}
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.closed = true;
		this.writer.shutdown();
		if (!this.writer.awaitTermination(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("A Widget write did not end within 30 s");
		}
	}

}
