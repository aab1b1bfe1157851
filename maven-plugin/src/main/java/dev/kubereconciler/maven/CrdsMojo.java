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

/**
 * Writes the CRD of every custom resource model class of the project, each class of the
 * compiled classes annotated with {@code @ResourceCoordinates}, into
 * {@code target/classes/META-INF/kubernetes/crds}, where the tests,
 * {@code kube-reconciler.crds.apply} and the jar find them; the classes that share a
 * group and plural are the versions of one CRD. It runs core's {@code CrdGenerator} with
 * {@code --classes}.
 */
@Mojo(name = "crds", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
		requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class CrdsMojo extends AbstractMojo {

	static final String GENERATOR = "dev.kubereconciler.crd.CrdGenerator";

	static final String PLUGIN_KEY = "dev.kubereconciler:kube-reconciler-maven-plugin";

	/**
	 * The compiled classes searched for model classes.
	 */
	@Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
	private File classesDirectory;

	/**
	 * Where the CRDs are written, one {@code <plural>.<group>.yaml} each.
	 */
	@Parameter(defaultValue = "${project.build.outputDirectory}/META-INF/kubernetes/crds", required = true)
	private File outputDirectory;

	/**
	 * Class name patterns of the model classes to take, such as {@code com.example.**}
	 * ({@code *} within a package, {@code **} across packages); all when empty.
	 */
	@Parameter
	private List<String> includes = new ArrayList<>();

	/**
	 * Class name patterns of model classes to leave out, such as
	 * {@code com.example.legacy.*}.
	 */
	@Parameter
	private List<String> excludes = new ArrayList<>();

	/**
	 * Skip the goal.
	 */
	@Parameter(property = "kube-reconciler.crds.skip", defaultValue = "false")
	private boolean skip;

	@Parameter(defaultValue = "${project.compileClasspathElements}", readonly = true, required = true)
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
			getLog().info("Skipping the CRDs (kube-reconciler.crds.skip)");
			return;
		}
		if (!this.classesDirectory.isDirectory()) {
			throw new MojoFailureException("No compiled classes in " + this.classesDirectory
					+ ": run the crds goal after compile (its default phase is process-classes)");
		}
		List<String> arguments = new ArrayList<>(List.of("--classes", this.classesDirectory.getAbsolutePath()));
		this.includes.forEach((include) -> arguments.addAll(List.of("--include", include)));
		this.excludes.forEach((exclude) -> arguments.addAll(List.of("--exclude", exclude)));
		arguments.add(this.outputDirectory.getAbsolutePath());
		GeneratorFork.requireArtifact(this.projectArtifacts, "dev.kubereconciler:kube-reconciler-core", "crds");
		List<String> classPath = GeneratorFork.classPath(this.classPathElements, this.projectArtifacts,
				this.pluginArtifacts, PLUGIN_KEY);
		new GeneratorFork(getLog(), this.baseDirectory.toPath(),
				this.buildDirectory.toPath().resolve("kube-reconciler/crds.args"))
			.run(classPath, GENERATOR, arguments);
	}

}
