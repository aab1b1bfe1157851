package dev.kubereconciler.sample.widget;

import java.util.Objects;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.external.ExternalApiException;
import dev.kubereconciler.sample.external.ExternalWidgetApi;

/**
 * Provisions each {@link Widget} through the paid {@link ExternalWidgetApi} and reports
 * the outcome in its status.
 *
 * <p>
 * Each reconcile makes at most one call (provision, update, describe or deprovision), so
 * the manager bucket, which admits reconciles, caps the calls too. A finalizer gives the
 * controller the chance to deprovision before a widget goes away. The widget's settings
 * ConfigMap is a dependent, applied by the framework before each reconcile, and the
 * {@code externalWidgets} source polls the external API for widgets it lost.
 */
@Component
public class WidgetReconciler implements Cleaner<Widget> {

	/** The finalizer that holds a widget until its external resource is deleted. */
	public static final String FINALIZER = "sample.kubereconciler.dev/external-widget";

	private final ExternalWidgetApi externalApi;

	public WidgetReconciler(ExternalWidgetApi externalApi) {
		this.externalApi = externalApi;
	}

	@Reconciler(name = "widget", rateLimiter = "widgetRateLimiter", finalizer = FINALIZER, sources = "externalWidgets")
	public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
		WidgetStatus current = (widget.getStatus() != null) ? widget.getStatus()
				: new WidgetStatus(null, null, null, null);
		try {
			widget.setStatus(sync(widget, current));
		}
		catch (ExternalApiException ex) {
			widget.setStatus(
					new WidgetStatus(WidgetStatus.ERROR, (ex.getStatusCode() == 404) ? null : current.externalId(),
							current.observedGeneration(), ex.getMessage()));
			context.updateStatus(widget);
			// retried through widgetRateLimiter, with backoff
			throw ex;
		}
		// an unchanged status is not written, so it does not reconcile the widget again
		context.updateStatus(widget);
		// a widget the external system loses is noticed by the externalWidgets source
		return Result.done();
	}

	// the finalizer's cleanup, linked to this controller by the type it cleans up
	@Override
	public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
		// the API refuses cursed widgets and the webhook refuses a repaint: nothing to
		// pay for, and a call could only fail and wait out its refusals' backoff
		if (!ExternalWidgetApi.CURSED.equals(widget.getSpec().color())) {
			// by the idempotency key, not the status's id: what a reconcile
			// provisioned but could not record in the status goes too
			this.externalApi.deprovisionFor(widget.getMetadata().getUid());
		}
		return Result.done();
	}

	// one call brings the external widget in line with the spec
	private WidgetStatus sync(Widget widget, WidgetStatus current) {
		Long generation = widget.getMetadata().getGeneration();
		WidgetSpec spec = widget.getSpec();
		String id = current.externalId();
		if (id == null) {
			ExternalWidgetApi.ExternalWidget provisioned = this.externalApi.provision(widget.getMetadata().getUid(),
					spec.color(), spec.size());
			id = provisioned.id();
			if (!provisioned.color().equals(spec.color()) || provisioned.size() != spec.size()) {
				// an earlier reconcile provisioned it for an older spec and could not
				// record it: the reconcile this status write triggers updates it
				return new WidgetStatus(WidgetStatus.ERROR, id, current.observedGeneration(),
						"the external API holds widget " + id + " of size " + provisioned.size()
								+ " from an earlier provision; updating it");
			}
		}
		else if (!WidgetStatus.READY.equals(current.phase())
				|| !Objects.equals(current.observedGeneration(), generation)) {
			this.externalApi.update(id, spec.color(), spec.size());
		}
		else if (this.externalApi.describe(id).isEmpty()) {
			// lost: provisioned again by the reconcile that this status write triggers
			return new WidgetStatus(WidgetStatus.ERROR, null, current.observedGeneration(),
					"the external API lost widget " + id + "; provisioning a new one");
		}
		return new WidgetStatus(WidgetStatus.READY, id, generation, null);
	}

}
