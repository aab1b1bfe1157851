/**
 * Renders the rate-limiting charts of the documentation from the limiters themselves, on
 * a virtual clock.
 */
@NullMarked
package dev.kubereconciler.docs;

import org.jspecify.annotations.NullMarked;
