/**
 * Runs an application's generated Deployment as a cluster would run it.
 */
@NullMarked
package dev.kubereconciler.test.deploy;

import org.jspecify.annotations.NullMarked;
