package dev.kubereconciler.internal.cache;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.function.BooleanSupplier;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.queue.Priorities;

/**
 * The priority of a watch event's add, following controller-runtime's
 * {@code handler.WithLowPriorityWhenUnchanged} ({@code pkg/handler/eventhandler.go}): a
 * create from the informer's initial list and an update whose old and new resourceVersion
 * are equal (a resync) get {@link Priorities#LOW}; every other event gets
 * {@link Priorities#NORMAL}.
 *
 * <p>
 * client-go marks initial-list creates with {@code IsInInitialList}; client-java's
 * {@code onAdd} has no such flag. A create counts as part of the initial list when it
 * arrives before the informer has synced, or when the object was created before the
 * informer was wired, or in the same second (creation timestamps have whole seconds):
 * client-java hands events to handlers on a thread of their own, so the tail of a large
 * initial list still arrives after {@code hasSynced()} turned true.
 */
final class EventPriority {

	private final BooleanSupplier synced;

	private final Instant wiredAt;

	EventPriority(BooleanSupplier synced, Clock clock) {
		this.synced = synced;
		// creation timestamps have whole seconds
		this.wiredAt = clock.instant().truncatedTo(ChronoUnit.SECONDS);
	}

	int ofAdd(KubernetesObject object) {
		// the timestamp first: the informer's sync takes the lock of its queue, which the
		// informer's own thread holds while it hands the initial list on
		boolean initial = createdBeforeWiring(object) || !this.synced.getAsBoolean();
		return initial ? Priorities.LOW : Priorities.NORMAL;
	}

	private boolean createdBeforeWiring(KubernetesObject object) {
		OffsetDateTime created = (object != null && object.getMetadata() != null)
				? object.getMetadata().getCreationTimestamp() : null;
		// the second of the wiring counts as before it: objects created just before a
		// start are common (a restart, a test), one created later in that same second is
		// rare and is still reconciled, only at low priority
		return created != null && !created.toInstant().isAfter(this.wiredAt);
	}

	static int ofUpdate(KubernetesObject oldObject, KubernetesObject newObject) {
		String before = resourceVersion(oldObject);
		return (before != null && before.equals(resourceVersion(newObject))) ? Priorities.LOW : Priorities.NORMAL;
	}

	private static @Nullable String resourceVersion(@Nullable KubernetesObject object) {
		return (object != null && object.getMetadata() != null) ? object.getMetadata().getResourceVersion() : null;
	}

}
