/**
 * Turns {@code @Reconciler} bean methods and {@code ControllerDefinition} beans, with
 * their properties, into the definitions the manager runs: signatures checked, watched
 * types inferred, finalizers given the bean's {@code Cleaner}, {@code Dependent} beans
 * given by their primary type, event filters and mapped watches resolved, each setting
 * chosen by one precedence ({@code Setting}).
 *
 * <p>
 * Internal to the auto-configuration: no public API.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.reconciler;

import org.jspecify.annotations.NullMarked;
