/**
 * The Widget custom resource, its client-java model and its controller.
 */
@NullMarked
package dev.kubereconciler.sample.widget;

import org.jspecify.annotations.NullMarked;
