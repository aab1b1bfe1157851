package dev.kubereconciler.sample.widget;

import java.util.Locale;

import org.springframework.stereotype.Component;

import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionRequest;

/**
 * The mutating webhook of widgets: colors are stored in lower case, as the external API
 * names them, so that {@code Blue} and {@code blue} are one color to the validator and
 * the reconciler alike.
 */
@Component
public class WidgetDefaulter implements AdmissionDefaulter<Widget> {

	@Override
	public void applyDefaults(Widget widget, AdmissionRequest request) {
		WidgetSpec spec = widget.getSpec();
		if (spec != null && spec.color() != null) {
			widget.setSpec(new WidgetSpec(spec.size(), spec.color().toLowerCase(Locale.ROOT)));
		}
	}

}
