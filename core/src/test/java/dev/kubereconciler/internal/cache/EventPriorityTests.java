package dev.kubereconciler.internal.cache;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.queue.Priorities;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventPriority}: controller-runtime's
 * {@code WithLowPriorityWhenUnchanged} rules on client-java's events.
 */
class EventPriorityTests {

	private static final Instant WIRED = Instant.parse("2026-11-23T10:00:00.700Z");

	private final AtomicBoolean synced = new AtomicBoolean();

	private final EventPriority priority = new EventPriority(this.synced::get, Clock.fixed(WIRED, ZoneOffset.UTC));

	@Test
	void createsBeforeTheInformerSyncedAreLow() {
		assertThat(this.priority.ofAdd(created("2026-11-23T10:05:00Z"))).isEqualTo(Priorities.LOW);
	}

	@Test
	void createsDeliveredAfterTheSyncAreLowOnlyForObjectsCreatedBeforeTheWiring() {
		this.synced.set(true);
		assertThat(this.priority.ofAdd(created("2026-11-23T09:59:59Z"))).isEqualTo(Priorities.LOW);
		// whole seconds: the second of the wiring counts as before it
		assertThat(this.priority.ofAdd(created("2026-11-23T10:00:00Z"))).isEqualTo(Priorities.LOW);
		assertThat(this.priority.ofAdd(created("2026-11-23T10:00:01Z"))).isEqualTo(Priorities.NORMAL);
		assertThat(this.priority.ofAdd(configMap(null))).isEqualTo(Priorities.NORMAL);
	}

	@Test
	void anUpdateThatKeepsTheResourceVersionIsAResyncAndLow() {
		assertThat(EventPriority.ofUpdate(configMap("7"), configMap("7"))).isEqualTo(Priorities.LOW);
		assertThat(EventPriority.ofUpdate(configMap("7"), configMap("8"))).isEqualTo(Priorities.NORMAL);
		assertThat(EventPriority.ofUpdate(null, configMap("8"))).isEqualTo(Priorities.NORMAL);
		assertThat(EventPriority.ofUpdate(configMap(null), configMap(null))).isEqualTo(Priorities.NORMAL);
	}

	private static V1ConfigMap created(String timestamp) {
		V1ConfigMap configMap = configMap("1");
		configMap.getMetadata().setCreationTimestamp(OffsetDateTime.parse(timestamp));
		return configMap;
	}

	private static V1ConfigMap configMap(String resourceVersion) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name("a").resourceVersion(resourceVersion));
	}

}
