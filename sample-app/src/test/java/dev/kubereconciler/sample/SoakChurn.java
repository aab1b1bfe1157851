package dev.kubereconciler.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import io.kubernetes.client.util.generic.KubernetesApiResponse;

import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.sample.external.ExternalWidgetApi;
import dev.kubereconciler.sample.external.ExternalWidgetApi.ExternalWidget;
import dev.kubereconciler.sample.external.ExternalWidgetStore;
import dev.kubereconciler.sample.widget.Widget;
import dev.kubereconciler.sample.widget.WidgetReconciler;
import dev.kubereconciler.sample.widget.WidgetStatus;

/**
 * Steady churn of Widgets: creates (some flaky or cursed, which the external API fails),
 * size changes and deletes, each through the webhooks, at a fixed pace; and at the end,
 * the check of every widget it touched against the state it must have reached.
 */
final class SoakChurn implements Runnable {

	static final String NAMESPACE = "default";

	private static final String[] COLORS = { "blue", "green", "red", "blue", "green", ExternalWidgetApi.FLAKY,
			ExternalWidgetApi.FLAKY, ExternalWidgetApi.CURSED };

	private final GenericKubernetesApi<Widget, CustomResourceList<Widget>> widgets;

	private final CoreV1Api core;

	private final int maxLive;

	private final Random random = new Random(20261127);

	private final Set<String> live = ConcurrentHashMap.newKeySet();

	private final Set<String> touched = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean stopped = new AtomicBoolean();

	private final AtomicLong writes = new AtomicLong();

	private final AtomicLong failedWrites = new AtomicLong();

	private final AtomicLong losses = new AtomicLong();

	private final ExternalWidgetStore externalApi;

	// the uid of each widget created, to find what the external API still holds for it
	private final Map<String, String> uids = new ConcurrentHashMap<>();

	private int next;

	SoakChurn(ApiClient admin, int maxLive, ExternalWidgetStore externalApi) {
		this.externalApi = externalApi;
		this.widgets = TestObjects.widgets(admin);
		this.core = new CoreV1Api(admin);
		this.maxLive = maxLive;
	}

	long writes() {
		return this.writes.get();
	}

	long failedWrites() {
		return this.failedWrites.get();
	}

	/** How many widgets the external API was made to lose. */
	long losses() {
		return this.losses.get();
	}

	void stop() {
		this.stopped.set(true);
	}

	/** One write of the churn; scheduled at a fixed pace, which is the load. */
	@Override
	public void run() {
		if (this.stopped.get()) {
			return;
		}
		try {
			step();
		}
		catch (RuntimeException ex) {
			this.failedWrites.incrementAndGet();
		}
	}

	private void step() {
		int choice = this.random.nextInt(10);
		List<String> names = new ArrayList<>(this.live);
		if (this.random.nextInt(20) == 0) {
			// the external system loses a widget, which its polling source must notice
			List<ExternalWidget> held = this.externalApi.widgets();
			if (!held.isEmpty()) {
				this.externalApi.remove(held.get(this.random.nextInt(held.size())).id());
				this.losses.incrementAndGet();
			}
		}
		else if (names.size() < this.maxLive / 2 || (choice < 4 && names.size() < this.maxLive)) {
			String name = "w-" + (++this.next);
			String color = COLORS[this.random.nextInt(COLORS.length)];
			this.touched.add(name);
			KubernetesApiResponse<Widget> created = this.widgets
				.create(TestObjects.widget(NAMESPACE, name, color, 1 + this.random.nextInt(50)));
			if (record(created)) {
				this.live.add(name);
				this.uids.put(name, created.getObject().getMetadata().getUid());
			}
		}
		else if (choice < 8 && !names.isEmpty()) {
			String name = names.get(this.random.nextInt(names.size()));
			record(this.widgets.patch(NAMESPACE, name, V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch("{\"spec\":{\"size\":" + (1 + this.random.nextInt(70)) + "}}")));
		}
		else if (!names.isEmpty()) {
			String name = names.get(this.random.nextInt(names.size()));
			if (record(this.widgets.delete(NAMESPACE, name))) {
				this.live.remove(name);
			}
		}
	}

	private boolean record(KubernetesApiResponse<Widget> response) {
		this.writes.incrementAndGet();
		if (!response.isSuccess()) {
			this.failedWrites.incrementAndGet();
		}
		return response.isSuccess();
	}

	/**
	 * Check every widget the churn touched as the API server holds it now: a widget that
	 * exists reflects its spec (Ready, or Error for a cursed one, at its generation, with
	 * its settings ConfigMap and the finalizer), one that does not has no settings
	 * ConfigMap left and is not stuck in deletion. The server, not the churn's record, is
	 * the truth for a write whose answer a fault swallowed.
	 * @return a line for each widget in a wrong state
	 */
	List<String> wrongStates() {
		List<String> wrong = new ArrayList<>();
		for (String name : this.touched) {
			KubernetesApiResponse<Widget> read = this.widgets.get(NAMESPACE, name);
			if (!read.isSuccess()) {
				if (read.getHttpStatusCode() != 404) {
					wrong.add(name + ": could not be read: " + read.getHttpStatusCode());
				}
				else if (settings(name) != null) {
					wrong.add(name + ": deleted, but its settings ConfigMap is left");
				}
				else if (heldFor(this.uids.get(name)) != null) {
					wrong.add(name + ": deleted, but the external API still holds " + heldFor(this.uids.get(name)));
				}
				continue;
			}
			String problem = problem(read.getObject());
			if (problem != null) {
				wrong.add(name + ": " + problem);
			}
		}
		return wrong;
	}

	int touched() {
		return this.touched.size();
	}

	private String problem(Widget widget) {
		if (widget.getMetadata().getDeletionTimestamp() != null) {
			return "deleted but still held, finalizers " + widget.getMetadata().getFinalizers();
		}
		WidgetStatus status = widget.getStatus();
		Long generation = widget.getMetadata().getGeneration();
		boolean cursed = ExternalWidgetApi.CURSED.equals(widget.getSpec().color());
		if (status == null) {
			return "no status";
		}
		if (cursed) {
			if (!WidgetStatus.ERROR.equals(status.phase())) {
				return "cursed but " + status;
			}
		}
		else if (!WidgetStatus.READY.equals(status.phase()) || status.externalId() == null
				|| !Objects.equals(status.observedGeneration(), generation)) {
			return "generation " + generation + " but " + status;
		}
		if (!Objects.requireNonNullElse(widget.getMetadata().getFinalizers(), List.of())
			.contains(WidgetReconciler.FINALIZER)) {
			return "without its finalizer";
		}
		if (!cursed) {
			ExternalWidget external = this.externalApi.find(status.externalId()).orElse(null);
			if (external == null || !external.color().equals(widget.getSpec().color())
					|| external.size() != widget.getSpec().size()) {
				return "Ready as " + status.externalId() + " but the external API holds " + external;
			}
		}
		V1ConfigMap settings = settings(widget.getMetadata().getName());
		Map<String, String> expected = Map.of("color", widget.getSpec().color(), "size",
				String.valueOf(widget.getSpec().size()));
		if (settings == null || !expected.equals(settings.getData())) {
			return "settings ConfigMap " + ((settings != null) ? settings.getData() : "missing") + ", expected "
					+ expected;
		}
		return null;
	}

	private ExternalWidget heldFor(String uid) {
		return (uid != null) ? this.externalApi.widgets()
			.stream()
			.filter((widget) -> widget.key().equals(uid))
			.findFirst()
			.orElse(null) : null;
	}

	private V1ConfigMap settings(String name) {
		try {
			return this.core.readNamespacedConfigMap(name + "-widget", NAMESPACE).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw new IllegalStateException("Could not read the settings of " + name + ": " + ex.getCode(), ex);
		}
	}

}
