/**
 * The goals of kube-reconciler's Maven plugin: {@code crds} and {@code manifests}, which
 * run the generators of core and autoconfigure in a JVM of their own over the project's
 * class path. Public API: the goals and their parameters; the rest is internal.
 */
@NullMarked
package dev.kubereconciler.maven;

import org.jspecify.annotations.NullMarked;
