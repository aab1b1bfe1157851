package dev.kubereconciler.autoconfigure.manifests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The monitoring manifests of an application, in a folder of their own
 * ({@code monitoring/}) with a kustomization of its own: Prometheus alert rules as a
 * plain rule file and as the Prometheus Operator's {@code PrometheusRule}, and a Grafana
 * dashboard as JSON and as a ConfigMap that Grafana's dashboard sidecar loads.
 *
 * <p>
 * They stay out of the application's kustomization: a {@code PrometheusRule} cannot be
 * applied to a cluster without the Prometheus Operator's CRD, and the dashboard's
 * ConfigMap belongs where Grafana's sidecar looks.
 */
final class MonitoringManifests {

	static final String FOLDER = "monitoring/";

	/**
	 * The label that Grafana's Helm chart tells its dashboard sidecar to look for.
	 */
	static final String DASHBOARD_LABEL = "grafana_dashboard";

	// Grafana refuses a dashboard uid over 40 characters
	private static final int MAX_UID_LENGTH = 40;

	private final String name;

	private final String namespace;

	MonitoringManifests(String name, String namespace) {
		this.name = name;
		this.namespace = namespace;
	}

	/**
	 * Return the monitoring manifests by file name, under {@link #FOLDER}.
	 * @return the content of each file
	 */
	Map<String, String> files() {
		String rules = template("alert-rules.yaml");
		String dashboard = template("dashboard.json");
		Map<String, String> files = new LinkedHashMap<>();
		files.put(FOLDER + "alert-rules.yaml", rules);
		files.put(FOLDER + "prometheusrule.yaml", prometheusRule(rules));
		files.put(FOLDER + "dashboard.json", dashboard);
		files.put(FOLDER + "dashboard-configmap.yaml", dashboardConfigMap(dashboard));
		files.put(FOLDER + "kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
				+ "resources:\n- prometheusrule.yaml\n- dashboard-configmap.yaml\n");
		return files;
	}

	// the rule file's groups as they are: one source for both, so that promtool's checks
	// and unit tests of the plain file hold for the PrometheusRule too
	private String prometheusRule(String rules) {
		org.yaml.snakeyaml.Yaml yaml = new org.yaml.snakeyaml.Yaml(ManifestYaml.blockStyle());
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("name", this.name);
		metadata.put("namespace", this.namespace);
		metadata.put("labels", Map.of("app.kubernetes.io/name", this.name));
		Map<String, Object> rule = new LinkedHashMap<>();
		rule.put("apiVersion", "monitoring.coreos.com/v1");
		rule.put("kind", "PrometheusRule");
		rule.put("metadata", metadata);
		rule.put("spec", yaml.load(rules));
		return yaml.dump(rule);
	}

	// labels in a fixed order, so that two builds write the same file
	private String dashboardConfigMap(String dashboard) {
		return ManifestYaml.dump(new V1ConfigMap().apiVersion("v1")
			.kind("ConfigMap")
			.metadata(new V1ObjectMeta().name(this.name + "-dashboard")
				.namespace(this.namespace)
				.labels(new TreeMap<>(Map.of("app.kubernetes.io/name", this.name, DASHBOARD_LABEL, "1"))))
			.data(Map.of(this.name + ".json", dashboard)));
	}

	private String template(String file) {
		String uid = (this.name.length() > MAX_UID_LENGTH) ? this.name.substring(0, MAX_UID_LENGTH) : this.name;
		try (InputStream in = MonitoringManifests.class.getResourceAsStream(file)) {
			if (in == null) {
				throw new IllegalStateException("No " + file + " next to " + MonitoringManifests.class.getName());
			}
			String template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return template.replace("@uid@", uid).replace("@name@", this.name);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
