/**
 * How a controller runs: its queue, its workers and their passage through the manager
 * gate, the handling of each outcome, the watchdog of reconcile timeouts, the standby
 * caches and the dispatch of sharded keys.
 *
 * <p>
 * Internal: no public API. Its public types serve the manager only.
 */
@NullMarked
package dev.kubereconciler.internal.controller;

import org.jspecify.annotations.NullMarked;
