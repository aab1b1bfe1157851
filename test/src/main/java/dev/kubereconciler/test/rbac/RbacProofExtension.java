package dev.kubereconciler.test.rbac;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

import dev.kubereconciler.rbac.RbacPolicyProvider;

/**
 * After a Spring test class of
 * {@link dev.kubereconciler.test.KubernetesTest @KubernetesTest}, called by its
 * extension, checks that the RBAC rules the application derives (its
 * {@link RbacPolicyProvider} bean) allow every request its {@code ApiClient} bean sent,
 * as recorded by the {@link ApiRequestRecorder} of
 * {@link dev.kubereconciler.test.KubernetesTestConfiguration}: each with its own verb,
 * resource, subresource, namespace and object name, so that a rule limited by resource
 * names is checked against every name the application touched. Test fixtures use the
 * class's own client, which is not recorded.
 */
public final class RbacProofExtension implements AfterAllCallback {

	private static final String SPRING_EXTENSION = "org.springframework.test.context.junit.jupiter.SpringExtension";

	@Override
	public void afterAll(ExtensionContext context) {
		// plain harness users, such as the benchmarks, have no spring-test on their
		// class path
		if (isPresent(SPRING_EXTENSION) && context.getExecutionException().isEmpty()) {
			SpringProof.check(context);
		}
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, RbacProofExtension.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * The check itself, loaded only when spring-test is present.
	 */
	private static final class SpringProof {

		private SpringProof() {
		}

		static void check(ExtensionContext context) {
			Class<?> testClass = context.getRequiredTestClass();
			boolean spring = AnnotationSupport.findRepeatableAnnotations(testClass, ExtendWith.class)
				.stream()
				.anyMatch((extendWith) -> List.of(extendWith.value()).contains(SpringExtension.class));
			if (!spring) {
				return;
			}
			ApplicationContext application = SpringExtension.getApplicationContext(context);
			ApiRequestRecorder recorder = application.getBeanProvider(ApiRequestRecorder.class).getIfAvailable();
			RbacPolicyProvider rbac = application.getBeanProvider(RbacPolicyProvider.class).getIfAvailable();
			if (recorder != null && rbac != null) {
				RbacAuthorizer.assertAllowed(rbac.policy(), recorder.requests());
			}
		}

	}

}
