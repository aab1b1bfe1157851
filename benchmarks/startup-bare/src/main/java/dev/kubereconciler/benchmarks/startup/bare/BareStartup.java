package dev.kubereconciler.benchmarks.startup.bare;

import java.lang.management.ManagementFactory;
import java.time.Instant;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.Config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application with Actuator and nothing of kube-reconciler, which lists the
 * ConfigMaps of one namespace with client-java's default client once its context
 * refreshed, then exits: the floor that Spring and the client set on this machine.
 *
 * <p>
 * It prints the start-up benchmark's milestones ({@code main}, {@code refreshed},
 * {@code listed}) as the other applications do; the namespace and the count come from
 * {@code STARTUP_NAMESPACE} and {@code STARTUP_OBJECTS}, the cluster from
 * {@code KUBECONFIG}, as client-java reads it by default.
 */
@SpringBootApplication
public class BareStartup {

	private static final String PREFIX = "startup-milestone ";

	public static void main(String[] args) throws Exception {
		reached("main");
		ConfigurableApplicationContext context = SpringApplication.run(BareStartup.class, args);
		reached("refreshed");
		String namespace = System.getenv().getOrDefault("STARTUP_NAMESPACE", "default");
		int objects = Integer.parseInt(System.getenv().getOrDefault("STARTUP_OBJECTS", "1000"));
		ApiClient client = Config.defaultClient();
		V1ConfigMapList list = new CoreV1Api(client).listNamespacedConfigMap(namespace).execute();
		if (list.getItems().size() == objects) {
			reached("listed");
		}
		else {
			System.out.println("listed " + list.getItems().size() + " ConfigMaps, expected " + objects);
		}
		context.close();
		// client-java leaves non-daemon threads behind
		System.exit(0);
	}

	// the same line as the other applications' Milestones, which this jar must not carry
	static void reached(String name) {
		Instant now = Instant.now();
		long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
		long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
		long sinceStart = ProcessHandle.current()
			.info()
			.startInstant()
			.map((start) -> (micros - start.toEpochMilli() * 1_000L) / 1_000L)
			.orElse(-1L);
		System.out.println(PREFIX + name + " " + micros + " " + sinceStart + " " + classes);
	}

}
