package dev.kubereconciler.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the JVM's {@linkplain KubernetesTestServer#shared() shared}
 * Kubernetes test server, in a namespace of its own.
 *
 * <p>
 * Parameters (of test, lifecycle and constructor methods) and instance fields of type
 * {@link io.kubernetes.client.openapi.ApiClient}, {@link KubernetesTestServer} and
 * {@link TestNamespace} are filled in; fields only when they are neither static nor final
 * and still {@code null}. The client and namespace belong to the test class: every test
 * in it gets the same ones. {@code @Nested} classes share their enclosing class's.
 *
 * <p>
 * Before the first test, and so before a Spring test's application context starts, the
 * class's CustomResourceDefinitions are applied by server-side apply and waited for until
 * the API server serves them: those {@linkplain #crds() named} and those of the
 * {@linkplain #customResources() model classes}, or, when neither is given, every
 * {@code META-INF/kubernetes/crds/*.yaml} on the class path. Each file is applied once
 * per run: a later class that wants a CRD still served as its file gives it (one list of
 * the CRDs' metadata shows its {@code resourceVersion} unchanged) neither applies nor
 * waits for it again.
 *
 * <p>
 * A {@linkplain dev.kubereconciler.test.gc.GarbageCollector garbage collector} runs on
 * the shared server, as kube-controller-manager's runs in a cluster: objects whose owners
 * are all deleted go, and foreground and orphan deletion complete. A class that
 * {@linkplain #garbageCollection() turns it off} has its namespace left alone; the JUnit
 * configuration parameter {@code kube-reconciler-test.garbage-collection.enabled=false}
 * (for example in {@code junit-platform.properties}) turns it off for the whole run.
 *
 * <p>
 * A Spring test class's application gets an {@code ApiClient} bean on the shared server
 * from {@link KubernetesTestConfiguration}, with no property to set.
 *
 * <p>
 * When the etcd and kube-apiserver binaries cannot be found, the tests are skipped with a
 * message saying how to provide them, or fail with that message if the environment
 * variable {@code CI} is {@code true}.
 *
 * <pre class="code">
 * &#064;KubernetesTest
 * class ConfigMapTests {
 *
 * 	&#064;Test
 * 	void createsAConfigMap(ApiClient client, TestNamespace namespace) throws ApiException {
 * 		new CoreV1Api(client).createNamespacedConfigMap(namespace.name(), configMap).execute();
 * 	}
 *
 * }
 * </pre>
 *
 * @see KubernetesTestExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KubernetesTestExtension.class)
public @interface KubernetesTest {

	/**
	 * Classpath locations of CRD files to install, each a file such as
	 * {@code crds/widgets.yaml} or a pattern in a folder such as {@code crds/*.yaml}; a
	 * named file must exist.
	 * @return the locations; with no {@link #customResources()} either, every
	 * {@code META-INF/kubernetes/crds/*.yaml}
	 */
	String[] crds() default {};

	/**
	 * Model classes annotated with
	 * {@link dev.kubereconciler.model.ResourceCoordinates @ResourceCoordinates} whose
	 * CRDs to install, each from {@code META-INF/kubernetes/crds/<plural>.<group>.yaml},
	 * which must exist.
	 * @return the classes; with no {@link #crds()} either, every
	 * {@code META-INF/kubernetes/crds/*.yaml}
	 */
	Class<?>[] customResources() default {};

	/**
	 * Whether garbage is collected in this class's namespace, as a cluster's controller
	 * manager collects it. Turn it off to see objects stay after their owners are gone,
	 * as on an API server alone; an owner deleted in the foreground or with orphan
	 * propagation then keeps its finalizer.
	 * @return whether the garbage collector acts on the class's namespace; {@code true}
	 * unless turned off
	 */
	boolean garbageCollection() default true;

}
