/**
 * The Widget custom resource, its client-java model and its controller.
 */
package dev.kubereconciler.sample.widget;
