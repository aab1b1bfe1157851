package dev.kubereconciler.autoconfigure.manifests;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Writes an application's Kubernetes manifests at build time: starts its context without
 * a web server and without starting the controllers, so that nothing connects to a
 * cluster, and writes {@code rbac.yaml}, {@code deployment.yaml} and the others into a
 * folder, with {@code crds/<plural>.<group>.yaml} for each custom resource (a class
 * annotated with {@code @ResourceCoordinates}) that the controllers watch, own or map,
 * written by {@link dev.kubereconciler.crd.CrdGenerator}: one file per CRD, with a
 * version for each of its classes.
 *
 * <p>
 * Arguments: the application class, the output folder, then any Spring Boot arguments
 * such as {@code --kube-reconciler.deployment.image=registry.example/app:1.0}.
 */
public final class KubernetesManifestsGenerator {

	private KubernetesManifestsGenerator() {
	}

	/**
	 * Write the manifests of an application from a build: the entry point of the Maven
	 * plugin's {@code manifests} goal and of a Gradle {@code JavaExec} task, run over the
	 * application's runtime class path.
	 * @param args the application class, the output folder, then any Spring Boot
	 * arguments, such as
	 * {@code --kube-reconciler.deployment.image=registry.example/app:1.0}
	 * @throws IllegalArgumentException if the arguments are wrong or the application
	 * class is not on the class path
	 * @throws Exception if the context does not start or a file cannot be written
	 */
	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			throw new IllegalArgumentException(
					"Usage: KubernetesManifestsGenerator <application class> <output folder> "
							+ "[--kube-reconciler.deployment.image=...] [--kube-reconciler.deployment.namespace=...]");
		}
		Class<?> application;
		try {
			application = Class.forName(args[0]);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalArgumentException("The application class " + args[0] + " is not on the class path: "
					+ "give the @SpringBootApplication class, and run the generator over the application's "
					+ "compiled classes and runtime class path", ex);
		}
		List<Path> written = generate(application, Path.of(args[1]), Arrays.copyOfRange(args, 2, args.length));
		written.forEach((path) -> System.out.println("Wrote " + path));
	}

	/**
	 * Generate the manifests of an application.
	 * @param application the application class
	 * @param directory the output folder
	 * @param args Spring Boot arguments
	 * @return the files written
	 * @throws Exception if the context does not start or a file cannot be written
	 */
	public static List<Path> generate(Class<?> application, Path directory, String... args) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
			.web(WebApplicationType.NONE)
			.properties("kube-reconciler.auto-startup=false", "spring.main.banner-mode=off",
					"spring.main.log-startup-info=false")
			.run(args)) {
			List<Class<?>> customResources = CustomResourceManifests.of(context.getBean(ManagedControllers.class)
				.getManager()
				.controllers()
				.values()
				.stream()
				.map(Controller::definition)
				.toList());
			KubernetesManifests manifests = new KubernetesManifests(context.getEnvironment(),
					context.getBean(KubeReconcilerProperties.class), context.getBean(DeploymentProperties.class),
					context.getBean(KubeReconcilerRbac.class), customResources,
					context.getBeanProvider(Webhooks.class).getIfAvailable(() -> Webhooks.builder().build()),
					context.getBeanProvider(WebhookProperties.class).getIfAvailable(WebhookProperties::new));
			return manifests.write(directory);
		}
	}

}
