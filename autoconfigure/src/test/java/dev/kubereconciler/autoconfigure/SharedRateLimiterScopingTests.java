package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One limiter bean below the top level of two controllers' limiters (a max-of or max-wait
 * child, or wrapped by a customizer) still gives each controller its own backoff per key,
 * and a client-java bean that cannot be scoped fails startup instead of sharing it.
 */
class SharedRateLimiterScopingTests {

	private static final Request KEY = new Request("ns", "same-name");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0))
		.withUserConfiguration(TwoControllers.class);

	@Test
	void limiterBeanAsMaxOfChildKeepsBackoffPerController() {
		this.contextRunner.withUserConfiguration(BackoffBean.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=max-of",
					"kube-reconciler.defaults.rate-limiter.limiters[0].bean=backoff",
					"kube-reconciler.defaults.rate-limiter.limiters[1].type=bucket")
			.run(this::assertBackoffPerController);
	}

	@Test
	void limiterBeanAsMaxWaitChildKeepsBackoffPerController() {
		this.contextRunner.withUserConfiguration(BackoffBean.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=max-wait",
					"kube-reconciler.defaults.rate-limiter.max-wait=1h",
					"kube-reconciler.defaults.rate-limiter.limiters[0].bean=backoff")
			.run(this::assertBackoffPerController);
	}

	@Test
	void customizerWrappingASharedBeanKeepsBackoffPerController() {
		this.contextRunner.withUserConfiguration(BackoffBean.class)
			.withBean(RateLimiterCustomizer.class,
					() -> (name, limiter) -> RateLimiters.maxWait(limiter, Duration.ofHours(1)))
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.bean=backoff")
			.run(this::assertBackoffPerController);
	}

	@Test
	void sharedClientJavaBeanWithPerItemStateFailsStartup() {
		this.contextRunner.withUserConfiguration(ClientJavaBean.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=max-of",
					"kube-reconciler.defaults.rate-limiter.limiters[0].bean=legacy",
					"kube-reconciler.defaults.rate-limiter.limiters[1].type=bucket")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasStackTraceContaining("Controllers 'configmap', 'secret' share one rate limiter instance")
					.hasStackTraceContaining(ItemExponentialFailureRateLimiter.class.getName())
					.hasStackTraceContaining("@Scope(\"prototype\")");
			});
	}

	@Test
	void prototypeClientJavaBeanGivesEachControllerItsOwn() {
		this.contextRunner.withUserConfiguration(PrototypeClientJavaBean.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.bean=legacy")
			.run(this::assertBackoffPerController);
	}

	private void assertBackoffPerController(AssertableApplicationContext context) {
		ControllerManager manager = manager(context);
		RateLimiter<Request> configMaps = manager.controller("configmap").rateLimiter();
		RateLimiter<Request> secrets = manager.controller("secret").rateLimiter();
		assertThat(configMaps.when(KEY)).isEqualTo(Duration.ofSeconds(1));
		assertThat(configMaps.when(KEY)).isEqualTo(Duration.ofSeconds(2));
		assertThat(secrets.when(KEY)).isEqualTo(Duration.ofSeconds(1));
		assertThat(secrets.numRequeues(KEY)).isEqualTo(1);
	}

	private static ControllerManager manager(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager();
	}

	@Configuration(proxyBeanMethods = false)
	static class TwoControllers {

		@Bean
		ConfigMaps configMaps() {
			return new ConfigMaps();
		}

		@Bean
		Secrets secrets() {
			return new Secrets();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BackoffBean {

		@Bean
		RateLimiter<Request> backoff() {
			return RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofMinutes(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClientJavaBean {

		@Bean
		io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<Request> legacy() {
			return new ItemExponentialFailureRateLimiter<>(Duration.ofSeconds(1), Duration.ofMinutes(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrototypeClientJavaBean {

		@Bean
		@Scope("prototype")
		io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<Request> legacy() {
			return new ItemExponentialFailureRateLimiter<>(Duration.ofSeconds(1), Duration.ofMinutes(10));
		}

	}

	static class ConfigMaps {

		@Reconciler(name = "configmap", watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

	static class Secrets {

		@Reconciler(name = "secret", watches = V1Secret.class)
		void reconcile(Request request) {
		}

	}

}
