/**
 * A fault proxy between an application and the API server: latency, jitter, a bandwidth
 * cap, connection resets and black holes, driven from a test.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.test.fault.FaultProxy} and
 * {@link dev.kubereconciler.test.fault.Direction}. The package-private types are
 * internal.
 */
@NullMarked
package dev.kubereconciler.test.fault;

import org.jspecify.annotations.NullMarked;
