package dev.kubereconciler.snippets;

import java.time.Duration;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.models.V1Secret;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

/**
 * The code that the README shows besides the quick start: a controller registered in
 * code, reading from the informer cache, and a rate limiter bean.
 */
@Configuration(proxyBeanMethods = false)
public class ReadmeSnippets {

	@Bean
	ControllerDefinition secretRotation(SharedInformerFactory informers) {
		return ControllerDefinition.builder(V1Secret.class)
			.named("secret-rotation")
			.labelSelector("rotate=true")
			.maxConcurrentReconciles(2)
			.rateLimiter(gentle())
			.reconcile((request) -> {
				// the informer cache: no request to the API server
				Lister<V1Secret> secrets = new Lister<>(
						informers.getExistingSharedIndexInformer(V1Secret.class).getIndexer());
				V1Secret secret = secrets.namespace(request.namespace()).get(request.name());
				return (secret != null) ? Result.requeueAfter(Duration.ofDays(1)) : Result.done();
			});
	}

	@Bean
	RateLimiter<Request> gentle() {
		return RateLimiters.maxOf(RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofMinutes(5)),
				RateLimiters.bucket(5, 20));
	}

}
