/**
 * Sources: where a controller's keys come from besides its watches, as
 * controller-runtime's {@code source.Channel} and {@code source.Func} and Java Operator
 * SDK's polling event sources: a {@link dev.kubereconciler.source.ChannelSource} that
 * application code pushes keys into, a {@link dev.kubereconciler.source.PollingSource}
 * and a {@link dev.kubereconciler.source.PerObjectPollingSource} that poll external state
 * on a period and enqueue what changed, and a
 * {@link dev.kubereconciler.source.TimerSource}. A controller starts its sources when its
 * workers start and stops them with its workers; their keys take the queue, the manager
 * gate and the limiters that watch events take.
 *
 * <p>
 * Public API: all of it. What runs them is
 * {@code dev.kubereconciler.internal.controller}.
 */
@NullMarked
package dev.kubereconciler.source;

import org.jspecify.annotations.NullMarked;
