package dev.kubereconciler.benchmarks;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.kubereconciler.internal.context.ModelCopier;

/**
 * Cost of the private copy an object-taking reconciler gets: {@link ModelCopier}'s
 * field-wise copy side by side with a JSON round trip through client-java's Gson, for a
 * ConfigMap with 20 keys and a Deployment with two containers.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class CopyBenchmark {

	private final ModelCopier copier = new ModelCopier();

	private final V1ConfigMap configMap = configMap();

	private final V1Deployment deployment = deployment();

	@Benchmark
	public V1ConfigMap configMapCopier() {
		return this.copier.copy(this.configMap);
	}

	@Benchmark
	public V1ConfigMap configMapJson() {
		return JSON.deserialize(JSON.serialize(this.configMap), V1ConfigMap.class);
	}

	@Benchmark
	public V1Deployment deploymentCopier() {
		return this.copier.copy(this.deployment);
	}

	@Benchmark
	public V1Deployment deploymentJson() {
		return JSON.deserialize(JSON.serialize(this.deployment), V1Deployment.class);
	}

	private static V1ObjectMeta metadata(String name) {
		return new V1ObjectMeta().name(name)
			.namespace("team-a")
			.uid("6b1f8f0e-34c1-4b0a-9d1e-2f7f5f2b9c11")
			.resourceVersion("123456")
			.generation(7L)
			.creationTimestamp(OffsetDateTime.parse("2026-01-02T03:04:05Z"))
			.labels(Map.of("app", name, "tier", "backend", "team", "a"))
			.annotations(Map.of("example.com/owner", "team-a"))
			.finalizers(List.of("example.com/cleanup"));
	}

	private static V1ConfigMap configMap() {
		Map<String, String> data = new LinkedHashMap<>();
		for (int i = 0; i < 20; i++) {
			data.put("key-" + i, "value number " + i + " of the settings");
		}
		return new V1ConfigMap().metadata(metadata("settings")).data(data);
	}

	private static V1Deployment deployment() {
		V1PodSpec pod = new V1PodSpec();
		for (String name : List.of("app", "sidecar")) {
			pod.addContainersItem(new V1Container().name(name)
				.image("registry.example.com/" + name + ":1.2.3")
				.addPortsItem(new V1ContainerPort().containerPort(8080).name("http"))
				.addEnvItem(new V1EnvVar().name("MODE").value("production"))
				.addEnvItem(new V1EnvVar().name("REGION").value("eu-west-1"))
				.resources(new V1ResourceRequirements()
					.requests(Map.of("cpu", Quantity.fromString("250m"), "memory", Quantity.fromString("256Mi")))));
		}
		return new V1Deployment().metadata(metadata("web"))
			.spec(new V1DeploymentSpec().replicas(3)
				.selector(new V1LabelSelector().matchLabels(Map.of("app", "web")))
				.template(new V1PodTemplateSpec().metadata(new V1ObjectMeta().labels(Map.of("app", "web"))).spec(pod)));
	}

}
