package dev.kubereconciler.controller;

import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.queue.RateLimitingQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EventPriority}: controller-runtime's {@code WithLowPriorityWhenUnchanged}
 * rules on client-java's events.
 */
class EventPriorityTests {

	@Test
	void createsBeforeTheInformerSyncedAreLowAndLaterOnesNormal() {
		AtomicBoolean synced = new AtomicBoolean();
		EventPriority priority = new EventPriority(synced::get);
		assertThat(priority.ofAdd()).isEqualTo(RateLimitingQueue.LOW_PRIORITY);
		synced.set(true);
		assertThat(priority.ofAdd()).isEqualTo(RateLimitingQueue.NORMAL_PRIORITY);
	}

	@Test
	void anUpdateThatKeepsTheResourceVersionIsAResyncAndLow() {
		assertThat(EventPriority.ofUpdate(configMap("7"), configMap("7"))).isEqualTo(RateLimitingQueue.LOW_PRIORITY);
		assertThat(EventPriority.ofUpdate(configMap("7"), configMap("8")))
			.isEqualTo(RateLimitingQueue.NORMAL_PRIORITY);
		assertThat(EventPriority.ofUpdate(null, configMap("8"))).isEqualTo(RateLimitingQueue.NORMAL_PRIORITY);
		assertThat(EventPriority.ofUpdate(configMap(null), configMap(null)))
			.isEqualTo(RateLimitingQueue.NORMAL_PRIORITY);
	}

	private static V1ConfigMap configMap(String resourceVersion) {
		return new V1ConfigMap().metadata(new V1ObjectMeta().name("a").resourceVersion(resourceVersion));
	}

}
