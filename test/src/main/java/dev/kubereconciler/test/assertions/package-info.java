/**
 * Assertions that operators need, awaited with Awaitility: an object's conditions,
 * fields, deletion and Events, and a controller's reconciles of a key.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.assertions.KubernetesAssertions} (the entry
 * point), the assertion types it returns, {@link ReconcileRecorder} and
 * {@link RecordedReconcile}. The rest is internal.
 */
@NullMarked
package dev.kubereconciler.test.assertions;

import org.jspecify.annotations.NullMarked;
