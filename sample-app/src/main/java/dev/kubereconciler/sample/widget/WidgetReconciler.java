package dev.kubereconciler.sample.widget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.sample.external.ExternalApiException;
import dev.kubereconciler.sample.external.ExternalWidgetApi;

/**
 * Provisions each {@link Widget} through the paid {@link ExternalWidgetApi} and reports the
 * outcome in its status.
 *
 * <p>Each reconcile makes at most one call (provision, update, describe or deprovision), so
 * the manager bucket, which admits reconciles, caps the calls too. A finalizer gives the
 * controller the chance to deprovision before a widget goes away.
 */
@Component
public class WidgetReconciler {

	/** The finalizer that holds a widget until its external resource is deleted. */
	public static final String FINALIZER = "sample.kubereconciler.dev/external-widget";

	private final GenericKubernetesApi<Widget, WidgetList> widgets;

	private final SharedInformerFactory informers;

	private final ExternalWidgetApi externalApi;

	private final Duration verifyPeriod;

	private final CustomObjectsApi customObjects;

	private final JSON json;

	public WidgetReconciler(GenericKubernetesApi<Widget, WidgetList> widgets, SharedInformerFactory informers,
			ExternalWidgetApi externalApi, SampleProperties properties, ApiClient apiClient) {
		this.widgets = widgets;
		this.informers = informers;
		this.externalApi = externalApi;
		this.verifyPeriod = properties.getWidgets().getVerifyPeriod();
		this.customObjects = new CustomObjectsApi(apiClient);
		this.json = apiClient.getJSON();
	}

	@Reconciler(name = "widget", watches = Widget.class, rateLimiter = "widgetRateLimiter")
	public Result reconcile(Request request) throws ApiException {
		Widget cached = cache().getIndexer().getByKey(request.key());
		if (cached == null) {
			return Result.done();
		}
		// objects in the informer's cache are shared: work on a copy
		Widget widget = this.json.deserialize(this.json.serialize(cached), Widget.class);
		if (widget.getMetadata().getDeletionTimestamp() != null) {
			return finalizeWidget(widget);
		}
		if (!finalizers(widget).contains(FINALIZER)) {
			List<String> finalizers = finalizers(widget);
			finalizers.add(FINALIZER);
			widget = patchFinalizers(widget, finalizers);
		}
		WidgetStatus status;
		try {
			status = sync(widget);
		}
		catch (ExternalApiException ex) {
			WidgetStatus current = currentStatus(widget);
			writeStatus(widget, new WidgetStatus().phase(WidgetStatus.ERROR)
				.externalId((ex.getStatusCode() == 404) ? null : current.getExternalId())
				.observedGeneration(current.getObservedGeneration())
				.message(ex.getMessage()));
			// retried through widgetRateLimiter, with backoff
			throw ex;
		}
		writeStatus(widget, status);
		// the external system can lose a widget: look again later
		return Result.requeueAfter(this.verifyPeriod);
	}

	/**
	 * Make one call to bring the external widget in line with the spec.
	 */
	private WidgetStatus sync(Widget widget) {
		WidgetStatus current = currentStatus(widget);
		Long generation = widget.getMetadata().getGeneration();
		WidgetSpec spec = widget.getSpec();
		String id = current.getExternalId();
		if (id == null) {
			id = this.externalApi.provision(widget.getMetadata().getUid(), spec.getColor(), spec.getSize());
		}
		else if (!WidgetStatus.READY.equals(current.getPhase())
				|| !Objects.equals(current.getObservedGeneration(), generation)) {
			this.externalApi.update(id, spec.getColor(), spec.getSize());
		}
		else if (this.externalApi.describe(id).isEmpty()) {
			// lost by the external system: provision again on the next reconcile, which the
			// status update triggers
			return new WidgetStatus().phase(WidgetStatus.ERROR)
				.observedGeneration(current.getObservedGeneration())
				.message("the external API lost widget " + id + "; provisioning a new one");
		}
		return new WidgetStatus().phase(WidgetStatus.READY).externalId(id).observedGeneration(generation);
	}

	private Result finalizeWidget(Widget widget) throws ApiException {
		List<String> finalizers = finalizers(widget);
		if (!finalizers.remove(FINALIZER)) {
			return Result.done();
		}
		String id = currentStatus(widget).getExternalId();
		if (id != null) {
			this.externalApi.deprovision(id);
		}
		patchFinalizers(widget, finalizers);
		return Result.done();
	}

	private void writeStatus(Widget widget, WidgetStatus status) throws ApiException {
		// an unchanged status is not written: no API call, and no update event that would
		// reconcile the widget again at once, bypassing the backoff
		if (status.equals(widget.getStatus())) {
			return;
		}
		widget.setStatus(status);
		V1ObjectMeta metadata = widget.getMetadata();
		// a PUT on the status subresource: the resourceVersion makes a stale write fail with 409.
		// GenericKubernetesApi.updateStatus sends a JSON patch "replace /status", which the API
		// server refuses (422) while a widget has no status yet.
		this.customObjects
			.replaceNamespacedCustomObjectStatus(Widget.GROUP, Widget.VERSION, metadata.getNamespace(), Widget.PLURAL,
					metadata.getName(), widget)
			.execute();
	}

	private Widget patchFinalizers(Widget widget, List<String> finalizers) throws ApiException {
		V1ObjectMeta metadata = widget.getMetadata();
		JsonArray values = new JsonArray();
		finalizers.forEach(values::add);
		JsonObject patchMetadata = new JsonObject();
		patchMetadata.add("finalizers", values);
		// fails with 409 Conflict if the widget changed since it was read, like an update
		patchMetadata.addProperty("resourceVersion", metadata.getResourceVersion());
		JsonObject patch = new JsonObject();
		patch.add("metadata", patchMetadata);
		return this.widgets
			.patch(metadata.getNamespace(), metadata.getName(), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
					new V1Patch(patch.toString()))
			.throwsApiException()
			.getObject();
	}

	private static List<String> finalizers(Widget widget) {
		List<String> finalizers = widget.getMetadata().getFinalizers();
		return (finalizers != null) ? new ArrayList<>(finalizers) : new ArrayList<>();
	}

	private static WidgetStatus currentStatus(Widget widget) {
		return (widget.getStatus() != null) ? widget.getStatus() : new WidgetStatus();
	}

	@SuppressWarnings("unchecked")
	private SharedIndexInformer<Widget> cache() {
		SharedIndexInformer<Widget> informer = this.informers.getExistingSharedIndexInformer(Widget.class);
		if (informer == null) {
			throw new IllegalStateException("No informer for widgets; is the widget controller running?");
		}
		return informer;
	}

}
