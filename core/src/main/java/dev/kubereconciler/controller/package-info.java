/**
 * Controllers as an application defines and sees them: the
 * {@link dev.kubereconciler.controller.ControllerDefinition} and its builder, the running
 * {@link dev.kubereconciler.controller.Controller}, its states and outcomes, the listener
 * of what it does, and the manager gate that caps every reconcile.
 *
 * <p>
 * Public API: all of it. The implementation is in
 * {@code dev.kubereconciler.internal.controller}, as controller-runtime keeps its own in
 * {@code pkg/internal/controller}.
 */
@NullMarked
package dev.kubereconciler.controller;

import org.jspecify.annotations.NullMarked;
