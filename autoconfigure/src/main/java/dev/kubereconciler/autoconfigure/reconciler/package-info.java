/**
 * Turns {@code @Reconciler} bean methods and {@code ControllerDefinition} beans, with
 * their properties, into the definitions the manager runs: signatures checked, finalizers
 * given the bean's {@code Cleaner}, event filters and mapped watches resolved.
 *
 * <p>
 * Internal to the auto-configuration: no public API.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.reconciler;

import org.jspecify.annotations.NullMarked;
