package dev.kubereconciler.autoconfigure.manifests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1MutatingWebhookConfiguration;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ValidatingWebhookConfiguration;
import io.kubernetes.client.util.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.Gadget;
import dev.kubereconciler.controller.Sprocket;
import dev.kubereconciler.crd.CrdGenerator;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.model.StorageVersion;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.conversion.VersionConverter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link KubernetesManifestsGenerator}: the manifests follow the application's
 * properties, and the overrides given as arguments.
 */
class KubernetesManifestsGeneratorTests {

	@TempDir
	Path output;

	@Test
	void writesRbacServiceAccountDeploymentAndServiceFromTheProperties() throws Exception {
		List<Path> written = KubernetesManifestsGenerator.generate(Application.class, this.output,
				"--spring.application.name=mirror", "--kube-reconciler.deployment.namespace=ops",
				"--kube-reconciler.deployment.image=registry.example/mirror:1.2",
				"--kube-reconciler.deployment.replicas=2", "--kube-reconciler.leader-election.enabled=true",
				"--kube-reconciler.shutdown-timeout=20s", "--management.server.port=9090",
				"--kube-reconciler.rbac.rules[0].resources=secrets", "--kube-reconciler.rbac.rules[0].verbs=get");
		assertThat(written).extracting((path) -> this.output.relativize(path).toString())
			.containsExactly("serviceaccount.yaml", "rbac.yaml", "deployment.yaml", "service.yaml",
					"kustomization.yaml", "monitoring/alert-rules.yaml", "monitoring/prometheusrule.yaml",
					"monitoring/dashboard.json", "monitoring/dashboard-configmap.yaml",
					"monitoring/kustomization.yaml");
		assertThat(load("serviceaccount.yaml", V1ServiceAccount.class).getMetadata().getNamespace()).isEqualTo("ops");
		List<Object> rbac = Yaml.loadAll(Files.readString(this.output.resolve("rbac.yaml")));
		assertThat(rbac).hasSize(4);
		V1Role controllers = (V1Role) rbac.get(0);
		assertThat(controllers.getMetadata().getName()).isEqualTo("mirror-controllers");
		assertThat(controllers.getMetadata().getNamespace()).isEqualTo("red");
		assertThat(controllers.getRules()).anySatisfy((rule) -> assertThat(rule.getResources()).contains("configmaps"))
			.anySatisfy((rule) -> assertThat(rule.getResources()).containsExactly("secrets"));
		V1Role leases = (V1Role) rbac.get(2);
		assertThat(leases.getMetadata().getNamespace()).isEqualTo("ops");
		assertThat(leases.getRules().get(0).getVerbs()).containsExactly("get", "create", "update");

		V1Deployment deployment = load("deployment.yaml", V1Deployment.class);
		assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
		assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo("mirror");
		// longer than the 20 s the reconciles may take to drain
		assertThat(deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds()).isEqualTo(35);
		V1Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
		assertThat(container.getImage()).isEqualTo("registry.example/mirror:1.2");
		assertThat(container.getPorts().get(0).getContainerPort()).isEqualTo(9090);
		assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
		assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
		// the settings reach the pod as Spring binds them
		// (GeneratedDeploymentEnvironmentTests binds every variable)
		GeneratedDeploymentEnvironmentTests.Bound bound = GeneratedDeploymentEnvironmentTests
			.bind(environment(container));
		assertThat(bound.properties().getLeaderElection().isEnabled()).isTrue();
		assertThat(bound.properties().getLeaderElection().isWarmup()).isTrue();
		assertThat(bound.properties().getShutdownTimeout()).hasSeconds(20);
		assertThat(bound.management().getPort()).isEqualTo(9090);
		assertThat(bound.probes()).isTrue();
		assertThat(bound.unbound()).isEmpty();
		V1Service service = load("service.yaml", V1Service.class);
		assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(9090);
		assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
	}

	@Test
	void writesTheMembersRulesApartAndTheProvidersReadsIntoTheLocalClustersRules() throws Exception {
		List<Path> written = KubernetesManifestsGenerator.generate(Application.class, this.output,
				"--spring.application.name=mirror", "--kube-reconciler.deployment.namespace=ops",
				"--kube-reconciler.controllers.mirror.clusters=fleet", "--kube-reconciler.cluster-secrets.enabled=true",
				"--kube-reconciler.cluster-secrets.namespace=fleet");
		assertThat(written).extracting((path) -> this.output.relativize(path).toString())
			.contains("members/serviceaccount.yaml", "members/rbac.yaml", "members/kustomization.yaml");
		// the fleet controller's rules go to each member only, bound to the
		// ServiceAccount of the same name and namespace there
		List<Object> members = Yaml.loadAll(Files.readString(this.output.resolve("members/rbac.yaml")));
		assertThat(members).hasSize(2);
		V1Role member = (V1Role) members.get(0);
		assertThat(member.getMetadata().getNamespace()).isEqualTo("red");
		assertThat(member.getRules()).singleElement()
			.satisfies((rule) -> assertThat(rule.getResources()).containsExactly("configmaps"));
		assertThat(load("members/serviceaccount.yaml", V1ServiceAccount.class).getMetadata().getNamespace())
			.isEqualTo("ops");
		assertThat(Files.readString(this.output.resolve("members/kustomization.yaml")))
			.endsWith("resources:\n- serviceaccount.yaml\n- rbac.yaml\n");
		// the local cluster: no controller runs there; the provider lists and watches
		// the kubeconfig Secrets of its namespace
		List<Object> local = Yaml.loadAll(Files.readString(this.output.resolve("rbac.yaml")));
		assertThat(local).hasSize(2);
		V1Role providers = (V1Role) local.get(0);
		assertThat(providers.getMetadata().getName()).isEqualTo("mirror-cluster-providers");
		assertThat(providers.getMetadata().getNamespace()).isEqualTo("fleet");
		assertThat(providers.getRules()).singleElement().satisfies((rule) -> {
			assertThat(rule.getResources()).containsExactly("secrets");
			assertThat(rule.getVerbs()).containsExactly("list", "watch");
		});
		assertThat(Files.readString(this.output.resolve("kustomization.yaml"))).doesNotContain("members");
	}

	@Test
	void passesJvmOptionsAsJavaToolOptionsOnlyWhenSet() throws Exception {
		KubernetesManifestsGenerator.generate(Application.class, this.output, "--spring.application.name=mirror");
		assertThat(container(load("deployment.yaml", V1Deployment.class)).getEnv()).extracting(V1EnvVar::getName)
			.doesNotContain("JAVA_TOOL_OPTIONS");
		KubernetesManifestsGenerator.generate(Application.class, this.output, "--spring.application.name=mirror",
				"--kube-reconciler.deployment.jvm-options=-XX:AOTCache=app.aot -Dspring.aot.enabled=true");
		assertThat(container(load("deployment.yaml", V1Deployment.class)).getEnv())
			.extracting(V1EnvVar::getName, V1EnvVar::getValue)
			.contains(org.assertj.core.groups.Tuple.tuple("JAVA_TOOL_OPTIONS",
					"-XX:AOTCache=app.aot -Dspring.aot.enabled=true"));
	}

	@Test
	void mainWritesTheManifestsAsTheMavenGoalAndAGradleJavaExecCallIt() throws Exception {
		KubernetesManifestsGenerator.main(new String[] { Application.class.getName(), this.output.toString(),
				"--spring.application.name=mirror", "--kube-reconciler.deployment.image=registry.example/mirror:1.2" });
		V1Deployment deployment = load("deployment.yaml", V1Deployment.class);
		assertThat(deployment.getMetadata().getName()).isEqualTo("mirror");
		assertThat(container(deployment).getImage()).isEqualTo("registry.example/mirror:1.2");
	}

	@Test
	void mainFailsNamingTheFix() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KubernetesManifestsGenerator.main(new String[] { this.output.toString() }))
			.withMessageStartingWith("Usage: KubernetesManifestsGenerator <application class> <output folder>");
		assertThatIllegalArgumentException().isThrownBy(
				() -> KubernetesManifestsGenerator.main(new String[] { "com.example.Missing", this.output.toString() }))
			.withMessageContaining("The application class com.example.Missing is not on the class path")
			.withMessageContaining("give the @SpringBootApplication class");
	}

	private static Map<String, String> environment(V1Container container) {
		Map<String, String> environment = new LinkedHashMap<>();
		container.getEnv().forEach((variable) -> environment.put(variable.getName(), variable.getValue()));
		return environment;
	}

	// promtool, Prometheus and kubectl prove the files' content on the sample
	// (PrometheusRulesTests, PrometheusScrapeTests, KubectlApplyTests)
	@Test
	void writesTheMonitoringManifestsUnderTheApplicationsNameInItsNamespace() throws Exception {
		KubernetesManifestsGenerator.generate(Application.class, this.output, "--spring.application.name=mirror",
				"--kube-reconciler.deployment.namespace=ops");
		Map<String, Object> rule = new org.yaml.snakeyaml.Yaml()
			.load(Files.readString(this.output.resolve("monitoring/prometheusrule.yaml")));
		assertThat(rule).containsEntry("apiVersion", "monitoring.coreos.com/v1")
			.containsEntry("kind", "PrometheusRule")
			.containsEntry("metadata",
					Map.of("name", "mirror", "namespace", "ops", "labels", Map.of("app.kubernetes.io/name", "mirror")));
		V1ConfigMap dashboard = load("monitoring/dashboard-configmap.yaml", V1ConfigMap.class);
		assertThat(dashboard.getMetadata().getName()).isEqualTo("mirror-dashboard");
		assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("ops");
		assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
		String json = Files.readString(this.output.resolve("monitoring/dashboard.json"));
		assertThat(dashboard.getData()).containsExactly(Map.entry("mirror.json", json));
		JsonObject parsed = JsonParser.parseString(json).getAsJsonObject();
		assertThat(parsed.get("title").getAsString()).isEqualTo("mirror (kube-reconciler)");
		assertThat(parsed.get("uid").getAsString()).isEqualTo("mirror");
		assertThat(Files.readString(this.output.resolve("monitoring/kustomization.yaml")))
			.contains("- prometheusrule.yaml\n- dashboard-configmap.yaml\n");
	}

	private static V1Container container(V1Deployment deployment) {
		return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
	}

	@Test
	void writesTheCrdOfEachCustomResourceTheControllersWatchOwnOrMapAndListsItFirst() throws Exception {
		List<Path> written = KubernetesManifestsGenerator.generate(CustomResourceApplication.class, this.output,
				"--spring.application.name=gadgets");
		assertThat(written).extracting((path) -> this.output.relativize(path).toString())
			.containsExactly("crds/gadgets.test.kubereconciler.dev.yaml", "crds/sprockets.test.kubereconciler.dev.yaml",
					"serviceaccount.yaml", "rbac.yaml", "deployment.yaml", "service.yaml", "kustomization.yaml",
					"monitoring/alert-rules.yaml", "monitoring/prometheusrule.yaml", "monitoring/dashboard.json",
					"monitoring/dashboard-configmap.yaml", "monitoring/kustomization.yaml");
		assertThat(Files.readString(this.output.resolve("crds/gadgets.test.kubereconciler.dev.yaml")))
			.isEqualTo(new CrdGenerator().yaml(Gadget.class));
		assertThat(Files.readString(this.output.resolve("kustomization.yaml")))
			.isEqualTo("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"
					+ "- crds/gadgets.test.kubereconciler.dev.yaml\n- crds/sprockets.test.kubereconciler.dev.yaml\n"
					+ "- serviceaccount.yaml\n- rbac.yaml\n- deployment.yaml\n- service.yaml\n");
	}

	@Test
	void writesTheWebhooksWithTheirServiceAndCertificateAndServesThemFromTheDeployment() throws Exception {
		List<Path> written = KubernetesManifestsGenerator.generate(WebhookApplication.class, this.output,
				"--spring.application.name=judge", "--kube-reconciler.deployment.namespace=ops",
				"--kube-reconciler.webhooks.failure-policy=ignore");
		assertThat(written).extracting((path) -> this.output.relativize(path).toString())
			.containsExactly("crds/doohickeys.webhook.test.kubereconciler.dev.yaml", "serviceaccount.yaml", "rbac.yaml",
					"deployment.yaml", "service.yaml", "webhook-service.yaml", "webhook-certificate.yaml",
					"webhooks.yaml", "kustomization.yaml", "monitoring/alert-rules.yaml",
					"monitoring/prometheusrule.yaml", "monitoring/dashboard.json",
					"monitoring/dashboard-configmap.yaml", "monitoring/kustomization.yaml");
		List<Object> configurations = Yaml.loadAll(Files.readString(this.output.resolve("webhooks.yaml")));
		assertThat(configurations).hasSize(2);
		V1ValidatingWebhookConfiguration validating = (V1ValidatingWebhookConfiguration) configurations.get(0);
		assertThat(validating.getMetadata().getName()).isEqualTo("judge");
		assertThat(validating.getMetadata().getAnnotations()).containsEntry("cert-manager.io/inject-ca-from",
				"ops/judge-webhook");
		assertThat(validating.getWebhooks()).singleElement().satisfies((webhook) -> {
			assertThat(webhook.getName()).isEqualTo("vconfigmap-v1.core.k8s.io");
			assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
			assertThat(webhook.getSideEffects()).isEqualTo("None");
			assertThat(webhook.getClientConfig().getService().getName()).isEqualTo("judge-webhook");
			assertThat(webhook.getClientConfig().getService().getNamespace()).isEqualTo("ops");
			assertThat(webhook.getClientConfig().getService().getPath()).isEqualTo("/validate--v1-configmap");
			assertThat(webhook.getClientConfig().getCaBundle()).isNull();
		});
		V1MutatingWebhookConfiguration mutating = (V1MutatingWebhookConfiguration) configurations.get(1);
		assertThat(mutating.getWebhooks()).singleElement()
			.satisfies((webhook) -> assertThat(webhook.getClientConfig().getService().getPath())
				.isEqualTo("/mutate--v1-configmap"));
		V1Service service = load("webhook-service.yaml", V1Service.class);
		assertThat(service.getSpec().getPorts()).singleElement().satisfies((port) -> {
			assertThat(port.getPort()).isEqualTo(443);
			assertThat(port.getTargetPort().getStrValue()).isEqualTo("webhook");
		});
		assertThat(Files.readString(this.output.resolve("webhook-certificate.yaml"))).contains("kind: Certificate",
				"secretName: judge-webhook-tls", "- judge-webhook.ops.svc");
		V1Deployment deployment = load("deployment.yaml", V1Deployment.class);
		V1Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
		assertThat(container.getPorts()).extracting((port) -> port.getName() + ":" + port.getContainerPort())
			.containsExactly("management:8080", "webhook:9443");
		assertThat(container.getVolumeMounts()).singleElement()
			.satisfies((mount) -> assertThat(mount.getMountPath()).isEqualTo("/tmp/k8s-webhook-server/serving-certs"));
		assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes()).singleElement()
			.satisfies((volume) -> assertThat(volume.getSecret().getSecretName()).isEqualTo("judge-webhook-tls"));
		GeneratedDeploymentEnvironmentTests.Bound bound = GeneratedDeploymentEnvironmentTests
			.bind(environment(container));
		assertThat(bound.webhooks().getSslBundle()).isEqualTo("webhook");
		assertThat(bound.webhooks().getPort()).isEqualTo(9443);
		assertThat(bound.ssl().getBundle().getPem().get("webhook").getKeystore().getCertificate())
			.isEqualTo("file:/tmp/k8s-webhook-server/serving-certs/tls.crt");
		assertThat(bound.unbound()).isEmpty();
		// no controller names the converted resource: both its versions are written, with
		// the conversion webhook
		String crd = Files.readString(this.output.resolve("crds/doohickeys.webhook.test.kubereconciler.dev.yaml"));
		assertThat(crd).contains("cert-manager.io/inject-ca-from: ops/judge-webhook", "strategy: Webhook",
				"name: judge-webhook", "path: /convert", "name: v1alpha1", "name: v1");
	}

	private <T> T load(String file, Class<T> type) throws IOException {
		return Yaml.loadAs(Files.readString(this.output.resolve(file)), type);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		ControllerDefinition mirror() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("mirror")
				.namespaces("red")
				.reconcile((request) -> Result.done());
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WebhookApplication {

		@Bean
		AdmissionValidator<V1ConfigMap> configMapValidator() {
			return new AdmissionValidator<>() {
			};
		}

		@Bean
		AdmissionDefaulter<V1ConfigMap> configMapDefaulter() {
			return (configMap, request) -> configMap.putDataItem("defaulted", "true");
		}

		@Bean
		VersionConverter<DoohickeyV1, DoohickeyV1alpha1> doohickeyConverter() {
			return new VersionConverter<>() {

				@Override
				public DoohickeyV1 toHub(DoohickeyV1alpha1 spoke) {
					return new DoohickeyV1();
				}

				@Override
				public DoohickeyV1alpha1 fromHub(DoohickeyV1 hub) {
					return new DoohickeyV1alpha1();
				}

			};
		}

	}

	@ResourceCoordinates(group = "webhook.test.kubereconciler.dev", version = "v1alpha1", kind = "Doohickey",
			plural = "doohickeys")
	static class DoohickeyV1alpha1 extends CustomResource<DoohickeyV1alpha1.Spec, Void> {

		record Spec(String name) {

		}

	}

	@StorageVersion
	@ResourceCoordinates(group = "webhook.test.kubereconciler.dev", version = "v1", kind = "Doohickey",
			plural = "doohickeys")
	static class DoohickeyV1 extends CustomResource<DoohickeyV1.Spec, Void> {

		record Spec(String title) {

		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CustomResourceApplication {

		// a built-in type, a watched and a mapped custom resource, and one owned twice:
		// a CRD each for the two custom resources
		@Bean
		ControllerDefinition gadgets() {
			return ControllerDefinition.builder(Gadget.class)
				.named("gadgets")
				.owns(V1ConfigMap.class)
				.maps(Sprocket.class, (sprocket) -> List.of())
				.reconcile((request) -> Result.done());
		}

		@Bean
		ControllerDefinition mirror() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("mirror")
				.owns(Gadget.class)
				.reconcile((request) -> Result.done());
		}

	}

}
