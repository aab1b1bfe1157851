/**
 * What can be said of the informer caches: the API coordinates of a model type
 * ({@link dev.kubereconciler.cache.ResourceType}), the label selectors and mapped watches
 * a controller declares, the transforms that make cached objects smaller
 * ({@link dev.kubereconciler.cache.CacheTransforms}), and how each type is cached
 * ({@link dev.kubereconciler.cache.CacheOptions}: read through, its own selectors, its
 * {@link dev.kubereconciler.cache.FieldIndex}es).
 *
 * <p>
 * Public API: the public types, {@link dev.kubereconciler.cache.CacheCompactor} excepted,
 * which is public only for the informer wiring of
 * {@code dev.kubereconciler.internal.cache}. The compact map and interner are
 * package-private.
 */
@NullMarked
package dev.kubereconciler.cache;

import org.jspecify.annotations.NullMarked;
