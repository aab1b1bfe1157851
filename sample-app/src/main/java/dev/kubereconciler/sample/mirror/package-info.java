/**
 * The configmap-mirror controller: copies labelled ConfigMaps into a target namespace.
 */
@NullMarked
package dev.kubereconciler.sample.mirror;

import org.jspecify.annotations.NullMarked;
