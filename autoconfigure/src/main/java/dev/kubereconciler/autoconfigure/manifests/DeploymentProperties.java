package dev.kubereconciler.autoconfigure.manifests;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the Kubernetes manifests that kube-reconciler generates
 * for the application: ServiceAccount, RBAC, Deployment and management Service.
 */
@ConfigurationProperties("kube-reconciler.deployment")
public class DeploymentProperties {

	/**
	 * Name of the Deployment, ServiceAccount, Service and roles. Defaults to
	 * spring.application.name, else "kube-reconciler".
	 */
	private @Nullable String name;

	/**
	 * Namespace the application is deployed to.
	 */
	private String namespace = "default";

	/**
	 * Container image. Defaults to "<name>:latest".
	 */
	private @Nullable String image;

	/**
	 * Number of replicas. More than one needs
	 * kube-reconciler.leader-election.enabled=true.
	 */
	private int replicas = 1;

	/**
	 * JVM options of the container, passed as JAVA_TOOL_OPTIONS, such as the flags of a
	 * faster start-up from an image that carries a trained archive ("-XX:AOTCache=app.aot
	 * -Dspring.aot.enabled=true"). Unset, the container gets no JAVA_TOOL_OPTIONS.
	 */
	private @Nullable String jvmOptions;

	public @Nullable String getName() {
		return this.name;
	}

	public void setName(@Nullable String name) {
		this.name = name;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public @Nullable String getImage() {
		return this.image;
	}

	public void setImage(@Nullable String image) {
		this.image = image;
	}

	public int getReplicas() {
		return this.replicas;
	}

	public void setReplicas(int replicas) {
		this.replicas = replicas;
	}

	public @Nullable String getJvmOptions() {
		return this.jvmOptions;
	}

	public void setJvmOptions(@Nullable String jvmOptions) {
		this.jvmOptions = jvmOptions;
	}

}
