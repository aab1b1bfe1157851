/**
 * Renders the rate-limiting charts of the documentation from the limiters themselves, on a
 * virtual clock.
 */
package dev.kubereconciler.docs;
