/**
 * The configmap-mirror controller: copies labelled ConfigMaps into a target namespace.
 */
package dev.kubereconciler.sample.mirror;
