package dev.kubereconciler.rbac;

/**
 * Supplies an application's whole RBAC policy, as derived from its controllers and
 * configuration, so that the test support can check the requests an application made
 * against it without knowing how the application was assembled.
 */
@FunctionalInterface
public interface RbacPolicyProvider {

	/**
	 * Calculate the policy.
	 * @return the policy
	 */
	RbacPolicy policy();

}
