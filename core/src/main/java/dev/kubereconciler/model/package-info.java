/**
 * The model of a custom resource as users write it: {@code @ResourceCoordinates} (group,
 * version, kind and plural), the {@code CustomResource} and {@code CustomResourceList}
 * base classes, and the annotations that shape its CRD beyond what the class says
 * (descriptions, defaults, printer columns, validation rules, ...). Kept apart from the
 * generator in {@code crd} that reads them, as fabric8 keeps
 * {@code kubernetes.model.annotation} apart from its CRD generator.
 *
 * <p>
 * Public API: all of it. Depends on no other package of kube-reconciler.
 */
@NullMarked
package dev.kubereconciler.model;

import org.jspecify.annotations.NullMarked;
