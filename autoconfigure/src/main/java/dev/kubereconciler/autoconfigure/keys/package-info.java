/**
 * Every {@code kube-reconciler.*} key as a whole: the check that fails startup on a key
 * (or a {@code KUBERECONCILER_*} environment variable) that binds to nothing, and the
 * native-image hints that bind each properties tree.
 *
 * <p>
 * Public API: the auto-configuration; the rest is internal.
 */
@NullMarked
package dev.kubereconciler.autoconfigure.keys;

import org.jspecify.annotations.NullMarked;
