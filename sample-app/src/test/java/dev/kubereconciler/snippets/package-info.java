/**
 * Compiled and tested sources of the code snippets in {@code docs/}, outside the sample's
 * component scan.
 */
package dev.kubereconciler.snippets;
