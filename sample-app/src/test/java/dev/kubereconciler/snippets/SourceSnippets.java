package dev.kubereconciler.snippets;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;

/**
 * The sources shown in {@code docs/operators.md}: a channel that an HTTP endpoint pushes
 * keys into, and a polling source declared on the builder.
 */
class SourceSnippets {

	@Bean
	ChannelSource widgetHooks() {
		return Source.channel("widget-hooks");
	}

	@RestController
	static class WidgetHookEndpoint {

		private final ChannelSource widgetHooks;

		WidgetHookEndpoint(ChannelSource widgetHooks) {
			this.widgetHooks = widgetHooks;
		}

		// the external system calls back when a widget changed on its side
		@PostMapping("/hooks/widgets/{namespace}/{name}")
		ResponseEntity<Void> changed(@PathVariable String namespace, @PathVariable String name) {
			boolean queued = this.widgetHooks.offer(new Request(namespace, name));
			// not the leader here: the caller retries, perhaps on another replica
			return queued ? ResponseEntity.accepted().build() : ResponseEntity.status(503).build();
		}

	}

	ControllerDefinition inventory(Inventory inventory) {
		return ControllerDefinition.builder(V1ConfigMap.class)
			.named("inventory")
			.source(Source.polling("inventory", Duration.ofMinutes(1), inventory::stateByKey)
				.rateLimiter(RateLimiters.exponential(Duration.ofSeconds(5), Duration.ofMinutes(10))))
			.source(Source.timer("nightly-audit", Duration.ofHours(24)))
			.reconcile((request) -> Result.done());
	}

	interface Inventory {

		// one call returns the external state of every object, by key
		Map<Request, String> stateByKey() throws Exception;

	}

}
