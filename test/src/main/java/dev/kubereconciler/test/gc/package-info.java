/**
 * A garbage collector for the test API server, as kube-controller-manager's: objects
 * whose owners are all gone are deleted, and foreground and orphan deletion of owners are
 * completed.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.gc.GarbageCollector}, which
 * {@code @KubernetesTest} starts on the shared server. The other types are internal.
 */
@NullMarked
package dev.kubereconciler.test.gc;

import org.jspecify.annotations.NullMarked;
