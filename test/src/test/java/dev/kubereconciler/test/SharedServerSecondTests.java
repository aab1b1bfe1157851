package dev.kubereconciler.test;

/**
 * One of the three classes of {@link SharedServerCheck}.
 */
@KubernetesTest
class SharedServerSecondTests extends SharedServerCheck {

}
