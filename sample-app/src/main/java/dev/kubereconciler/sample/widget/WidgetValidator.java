package dev.kubereconciler.sample.widget;

import java.util.Objects;

import org.springframework.stereotype.Component;

import dev.kubereconciler.webhook.admission.AdmissionRequest;
import dev.kubereconciler.webhook.admission.AdmissionResult;
import dev.kubereconciler.webhook.admission.AdmissionValidator;

/**
 * The validating webhook of widgets: what the CRD's schema cannot say. A widget's color
 * is painted once, as the external API cannot repaint one, and large widgets draw a
 * warning about their price.
 */
@Component
public class WidgetValidator implements AdmissionValidator<Widget> {

	/** The size above which a widget is billed at the large rate. */
	public static final int LARGE = 80;

	@Override
	public AdmissionResult validateCreate(Widget widget, AdmissionRequest request) {
		WidgetSpec spec = widget.getSpec();
		if (spec != null && spec.size() != null && spec.size() > LARGE) {
			return AdmissionResult.allowed()
				.withWarnings("widgets larger than " + LARGE + " are billed at the large rate");
		}
		return AdmissionResult.allowed();
	}

	@Override
	public AdmissionResult validateUpdate(Widget oldWidget, Widget widget, AdmissionRequest request) {
		// judge what this update changes, never the whole object again: the finalizer's
		// removal, a label or an annotation must pass on a widget stored before a rule
		String before = (oldWidget.getSpec() != null) ? oldWidget.getSpec().color() : null;
		String after = (widget.getSpec() != null) ? widget.getSpec().color() : null;
		if (!Objects.equals(before, after)) {
			return AdmissionResult.denied("spec.color cannot change from " + before + " to " + after
					+ ": the external widget cannot be repainted, so delete this widget and create it again");
		}
		Integer oldSize = (oldWidget.getSpec() != null) ? oldWidget.getSpec().size() : null;
		Integer size = (widget.getSpec() != null) ? widget.getSpec().size() : null;
		return Objects.equals(oldSize, size) ? AdmissionResult.allowed() : validateCreate(widget, request);
	}

}
