/**
 * Controllers and the manager that runs them: informers, workers, outcome handling,
 * leader election and the shared manager gate. Plain Java, no Spring.
 */
@NullMarked
package dev.kubereconciler.controller;

import org.jspecify.annotations.NullMarked;
