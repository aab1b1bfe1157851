package dev.kubereconciler.snippets;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapEnvSource;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvFromSource;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1SecretEnvSource;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.ReadyPostcondition;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.sample.widget.Widget;

/**
 * Snippets of {@code docs/dependents.md} and {@code docs/operators.md}: a workflow of a
 * ConfigMap, a Secret, a Deployment and a Service, a bulk dependent, and the settings
 * controller of the operators guide written with a dependent.
 */
final class DependentSnippets {

	private DependentSnippets() {
	}

	static ControllerDefinition widgetSettingsAsDependent() {
		return ControllerDefinition.builder(Widget.class)
			.named("widget-settings")
			.dependent("settings", V1ConfigMap.class,
					(widget, context) -> new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-settings"))
						.putDataItem("color", widget.getSpec().color()))
			.reconcile((widget, context) -> Result.done());
	}

	static ControllerDefinition widgetApp() {
		return ControllerDefinition.builder(Widget.class)
			.named("widget-app")
			.dependent("config", V1ConfigMap.class,
					(widget, context) -> new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(widget.getMetadata().getName()))
						.putDataItem("color", widget.getSpec().color()))
			.dependent("secret", V1Secret.class,
					(widget, context) -> new V1Secret()
						.metadata(new V1ObjectMeta().name(widget.getMetadata().getName()))
						.putStringDataItem("token", "generated elsewhere"))
			.dependent("deployment", V1Deployment.class, (widget, context) -> deployment(widget),
					(options) -> options.dependsOn("config", "secret")
						.readyWhen(ReadyPostcondition.deploymentAvailable()))
			.dependent("service", V1Service.class, (widget, context) -> service(widget),
					(options) -> options.dependsOn("deployment")
						.reconcileWhen((widget, context) -> widget.getSpec().size() > 1))
			.reconcile((widget, context) -> {
				// the dependents were applied before this runs
				if (!context.dependents().ready()) {
					context.events().normal(widget, "Waiting", "Reconcile", context.dependents().message());
				}
				return Result.done();
			});
	}

	static Dependent<Widget, V1ConfigMap> shards() {
		return Dependent.bulk("shards", V1ConfigMap.class,
				(widget, context) -> IntStream.range(0, widget.getSpec().size())
					.mapToObj((shard) -> new V1ConfigMap()
						.metadata(new V1ObjectMeta().name(widget.getMetadata().getName() + "-shard-" + shard))
						.putDataItem("shard", Integer.toString(shard)))
					.toList());
	}

	private static V1Deployment deployment(Widget widget) {
		String name = widget.getMetadata().getName();
		return new V1Deployment().metadata(new V1ObjectMeta().name(name))
			.spec(new V1DeploymentSpec().replicas(widget.getSpec().size())
				.selector(new V1LabelSelector().matchLabels(Map.of("app", name)))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", name)))
					.spec(new V1PodSpec().containers(List.of(new V1Container().name("app")
						.image("nginx:1.27")
						.envFrom(List.of(new V1EnvFromSource().configMapRef(new V1ConfigMapEnvSource().name(name)),
								new V1EnvFromSource().secretRef(new V1SecretEnvSource().name(name)))))))));
	}

	private static V1Service service(Widget widget) {
		String name = widget.getMetadata().getName();
		return new V1Service().metadata(new V1ObjectMeta().name(name))
			.spec(new V1ServiceSpec().selector(Map.of("app", name))
				.ports(List.of(new V1ServicePort().name("http").port(80).targetPort(new IntOrString(8080)))));
	}

}
