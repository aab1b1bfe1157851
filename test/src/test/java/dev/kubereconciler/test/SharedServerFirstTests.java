package dev.kubereconciler.test;

/**
 * One of the three classes of {@link SharedServerCheck}.
 */
@KubernetesTest
class SharedServerFirstTests extends SharedServerCheck {

}
