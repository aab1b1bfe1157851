package dev.kubereconciler.maven;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.jspecify.annotations.Nullable;

/**
 * Writes the application's Kubernetes manifests into {@code target/kubernetes}: RBAC
 * derived from its controllers, ServiceAccount, Deployment, Service, a kustomization, and
 * the CRD of each custom resource the controllers use. It starts the application's
 * context at build time, without a web server and without starting the controllers (as
 * Spring Boot's {@code process-aot} does), through autoconfigure's
 * {@code KubernetesManifestsGenerator}; the {@code kube-reconciler.deployment.*} settings
 * are this goal's parameters.
 */
@Mojo(name = "manifests", defaultPhase = LifecyclePhase.PACKAGE, requiresDependencyResolution = ResolutionScope.RUNTIME,
		threadSafe = true)
public class ManifestsMojo extends AbstractMojo {

	static final String GENERATOR = "dev.kubereconciler.autoconfigure.manifests.KubernetesManifestsGenerator";

	/**
	 * The application class, annotated with {@code @SpringBootApplication}. Defaults to
	 * the {@code start-class} property, else the one such class of the compiled classes.
	 */
	@Parameter(property = "kube-reconciler.main-class", defaultValue = "${start-class}")
	private @Nullable String mainClass;

	/**
	 * Where the manifests are written.
	 */
	@Parameter(defaultValue = "${project.build.directory}/kubernetes", required = true)
	private File outputDirectory;

	/**
	 * The container image of the Deployment ({@code kube-reconciler.deployment.image});
	 * unset, the application's own setting, else {@code <name>:latest}.
	 */
	@Parameter(property = "kube-reconciler.deployment.image")
	private @Nullable String image;

	/**
	 * The namespace the application is deployed to
	 * ({@code kube-reconciler.deployment.namespace}); unset, the application's own
	 * setting, else {@code default}.
	 */
	@Parameter(property = "kube-reconciler.deployment.namespace")
	private @Nullable String namespace;

	/**
	 * The Deployment's replicas ({@code kube-reconciler.deployment.replicas}); more than
	 * one needs leader election. Unset, the application's own setting, else 1.
	 */
	@Parameter(property = "kube-reconciler.deployment.replicas")
	private @Nullable Integer replicas;

	/**
	 * The name of the Deployment, ServiceAccount, Service and roles
	 * ({@code kube-reconciler.deployment.name}); unset, the application's own setting,
	 * else {@code spring.application.name}.
	 */
	@Parameter(property = "kube-reconciler.deployment.name")
	private @Nullable String name;

	/**
	 * The container's JVM options, as {@code JAVA_TOOL_OPTIONS}
	 * ({@code kube-reconciler.deployment.jvm-options}).
	 */
	@Parameter(property = "kube-reconciler.deployment.jvm-options")
	private @Nullable String jvmOptions;

	/**
	 * Further Spring Boot arguments for the application's context, such as
	 * {@code --spring.profiles.active=prod}.
	 */
	@Parameter
	private List<String> arguments = new ArrayList<>();

	/**
	 * Skip the goal.
	 */
	@Parameter(property = "kube-reconciler.manifests.skip", defaultValue = "false")
	private boolean skip;

	@Parameter(defaultValue = "${project.build.outputDirectory}", readonly = true, required = true)
	private File classesDirectory;

	@Parameter(defaultValue = "${project.runtimeClasspathElements}", readonly = true, required = true)
	private List<String> classPathElements;

	@Parameter(defaultValue = "${project.artifacts}", readonly = true, required = true)
	private Set<Artifact> projectArtifacts;

	@Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
	private List<Artifact> pluginArtifacts;

	@Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
	private File baseDirectory;

	@Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
	private File buildDirectory;

	@Override
	public void execute() throws MojoExecutionException, MojoFailureException {
		if (this.skip) {
			getLog().info("Skipping the manifests (kube-reconciler.manifests.skip)");
			return;
		}
		List<String> generatorArguments = new ArrayList<>(
				List.of(applicationClass(), this.outputDirectory.getAbsolutePath()));
		setting(generatorArguments, "image", this.image);
		setting(generatorArguments, "namespace", this.namespace);
		setting(generatorArguments, "replicas", this.replicas);
		setting(generatorArguments, "name", this.name);
		setting(generatorArguments, "jvm-options", this.jvmOptions);
		generatorArguments.addAll(this.arguments);
		GeneratorFork.requireArtifact(this.projectArtifacts,
				"dev.kubereconciler:kube-reconciler-spring-boot-autoconfigure", "manifests");
		List<String> classPath = GeneratorFork.classPath(this.classPathElements, this.projectArtifacts,
				this.pluginArtifacts, CrdsMojo.PLUGIN_KEY);
		new GeneratorFork(getLog(), this.baseDirectory.toPath(),
				this.buildDirectory.toPath().resolve("kube-reconciler/manifests.args"))
			.run(classPath, GENERATOR, generatorArguments);
	}

	private String applicationClass() throws MojoFailureException {
		if (this.mainClass != null && !this.mainClass.isBlank()) {
			return this.mainClass;
		}
		List<String> found = MainClassFinder.springBootApplications(this.classesDirectory.toPath());
		if (found.size() == 1) {
			return found.get(0);
		}
		String fix = "; name the application class in the plugin's <mainClass>, the start-class property or "
				+ "-Dkube-reconciler.main-class";
		if (found.isEmpty()) {
			throw new MojoFailureException("No main class: no class in " + this.classesDirectory
					+ " is annotated with @SpringBootApplication" + fix);
		}
		throw new MojoFailureException("No main class: " + found.size() + " classes in " + this.classesDirectory
				+ " are annotated with @SpringBootApplication, " + found + fix);
	}

	private static void setting(List<String> arguments, String property, @Nullable Object value) {
		if (value != null && !value.toString().isBlank()) {
			arguments.add("--kube-reconciler.deployment." + property + "=" + value);
		}
	}

}
