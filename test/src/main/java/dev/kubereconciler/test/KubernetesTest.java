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

}
