package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileLogic.FunctionLogic;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link KubeReconcilerAutoConfiguration}. The manager is built but not started
 * ({@code kube-reconciler.auto-startup=false}), so no API server is needed.
 */
class KubeReconcilerAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void providesDefaultBeans() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ApiClient.class);
			assertThat(context).hasSingleBean(SharedInformerFactory.class);
			// the manager's own, whose informers store objects without a key each
			assertThat(context.getBean(SharedInformerFactory.class))
				.isExactlyInstanceOf(ControllerManager.informerFactory(new ApiClient().setReadTimeout(0)).getClass());
			assertThat(context).hasSingleBean(ManagedControllers.class);
			assertThat(context).hasBean("managerRateLimiter");
			assertThat(manager(context).controllers()).isEmpty();
		});
	}

	@Test
	void exposesTheControllersAsARegistryThatApplicationCodeInjects() {
		this.contextRunner.withBean(RegistryUser.class).run((context) -> {
			assertThat(context).hasSingleBean(ControllerRegistry.class);
			ControllerRegistry registry = context.getBean(RegistryUser.class).registry;
			assertThat(registry.controllers()).isEmpty();
			assertThat(registry.gate()).isSameAs(manager(context).gate());
			assertThat(registry.gate().bucket()).isSameAs(context.getBean("managerRateLimiter"));
		});
	}

	// Spring AOT settles conditions at build time; the bean stays, so that the property
	// still turns the CRDs on where the application is deployed, and does nothing without
	// it
	@Test
	void readsCrdsApplyWhenItStartsRatherThanAsACondition() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasBean("kubeReconcilerCrds");
		});
	}

	@Test
	void backsOffWithoutApiClientClass() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ApiClient.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ManagedControllers.class));
	}

	@Test
	void canBeDisabled() {
		this.contextRunner.withPropertyValues("kube-reconciler.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ManagedControllers.class));
	}

	@Test
	void userSharedInformerFactoryIsUsed() {
		SharedInformerFactory factory = new SharedInformerFactory(new ApiClient().setReadTimeout(0));
		this.contextRunner.withBean("myFactory", SharedInformerFactory.class, () -> factory)
			.run((context) -> assertThat(context).getBean(SharedInformerFactory.class).isSameAs(factory));
	}

	@Test
	void managerBucketIsUnlimitedWithoutQps() {
		this.contextRunner.run((context) -> {
			TokenBucketRateLimiter<?> bucket = context.getBean("managerRateLimiter", TokenBucketRateLimiter.class);
			assertThat(bucket.qps()).isInfinite();
		});
	}

	@Test
	void managerBucketFollowsProperties() {
		this.contextRunner
			.withPropertyValues("kube-reconciler.manager.rate-limiter.qps=5",
					"kube-reconciler.manager.rate-limiter.burst=7")
			.run((context) -> {
				TokenBucketRateLimiter<?> bucket = context.getBean("managerRateLimiter", TokenBucketRateLimiter.class);
				assertThat(bucket.qps()).isEqualTo(5.0);
				assertThat(bucket.burst()).isEqualTo(7);
				assertThat(manager(context).gate().bucket()).isSameAs(bucket);
			});
	}

	@Test
	void userManagerBucketReplacesOurs() {
		TokenBucketRateLimiter<Object> mine = RateLimiters.bucket(3, 3);
		this.contextRunner.withBean("managerRateLimiter", TokenBucketRateLimiter.class, () -> mine)
			.run((context) -> assertThat(manager(context).gate().bucket()).isSameAs(mine));
	}

	@Test
	void reconcilerMethodBecomesController() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class).run((context) -> {
			Controller controller = manager(context).controller("configmap-mirror");
			assertThat(controller).isNotNull();
			assertThat(controller.resourceType().displayName()).isEqualTo("v1/ConfigMap");
			assertThat(controller.definition().maxConcurrentReconciles()).isEqualTo(1);
			assertThat(((FunctionLogic<?>) controller.definition().reconciler()).function()
				.reconcile(new Request("ns", "a"))).isEqualTo(Result.done());
		});
	}

	@Test
	void nameDefaultsToLowerCaseKind() {
		this.contextRunner.withUserConfiguration(UnnamedConfiguration.class)
			.run((context) -> assertThat(manager(context).controllers()).containsOnlyKeys("secret"));
	}

	@Test
	void propertiesWinOverAnnotation() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.max-concurrent-reconciles=4",
					"kube-reconciler.controllers.configmap-mirror.label-selector=mirror=true",
					"kube-reconciler.controllers.configmap-mirror.namespaces=a,b",
					"kube-reconciler.controllers.configmap-mirror.reconcile-timeout=45s")
			.run((context) -> {
				ControllerDefinition definition = manager(context).controller("configmap-mirror").definition();
				assertThat(definition.maxConcurrentReconciles()).isEqualTo(4);
				assertThat(definition.labelSelector()).hasToString("mirror=true");
				assertThat(definition.namespaces()).containsExactlyInAnyOrder("a", "b");
				assertThat(definition.reconcileTimeout()).isEqualTo(Duration.ofSeconds(45));
			});
	}

	@Test
	void defaultsApplyToAnnotatedControllers() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.max-concurrent-reconciles=3",
					"kube-reconciler.defaults.cache-sync-timeout=5s")
			.run((context) -> {
				ControllerDefinition definition = manager(context).controller("configmap-mirror").definition();
				assertThat(definition.maxConcurrentReconciles()).isEqualTo(3);
				assertThat(definition.cacheSyncTimeout()).isEqualTo(Duration.ofSeconds(5));
			});
	}

	@Test
	void rateLimiterFromYaml() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.rate-limiter.type=exponential",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.base-delay=1s",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.max-delay=8s")
			.run((context) -> {
				RateLimiter<Request> limiter = manager(context).controller("configmap-mirror").rateLimiter();
				Request key = new Request("ns", "a");
				assertThat(limiter.when(key)).isEqualTo(Duration.ofSeconds(1));
				assertThat(limiter.when(key)).isEqualTo(Duration.ofSeconds(2));
				assertThat(limiter.state().type()).isEqualTo("exponential");
			});
	}

	@Test
	void composedRateLimiterFromYaml() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=max-wait",
					"kube-reconciler.defaults.rate-limiter.max-wait=30s",
					"kube-reconciler.defaults.rate-limiter.limiters[0].type=max-of",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[0].type=fast-slow",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[0].fast-delay=1s",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[0].slow-delay=1m",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[0].max-fast-attempts=2",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[1].type=bucket",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[1].qps=1",
					"kube-reconciler.defaults.rate-limiter.limiters[0].limiters[1].burst=1")
			.run((context) -> {
				RateLimiter<Request> limiter = manager(context).controller("configmap-mirror").rateLimiter();
				Request key = new Request("ns", "a");
				assertThat(limiter.when(key)).isEqualTo(Duration.ofSeconds(1));
				assertThat(limiter.when(key)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
				assertThat(limiter.when(key)).isEqualTo(Duration.ofSeconds(30));
				assertThat(limiter.state().type()).isEqualTo("max-wait");
				assertThat(limiter.state().children()).singleElement()
					.satisfies((child) -> assertThat(child.type()).isEqualTo("max-of"));
			});
	}

	@Test
	void rateLimiterBeanFromAnnotation() {
		this.contextRunner.withUserConfiguration(MirrorWithLimiterConfiguration.class)
			.run((context) -> assertThat(manager(context).controller("configmap-mirror").rateLimiter())
				.isSameAs(context.getBean("slowLimiter")));
	}

	@Test
	void rateLimiterBeanFromProperty() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class, LimiterConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.rate-limiter.bean=slowLimiter")
			.run((context) -> assertThat(manager(context).controller("configmap-mirror").rateLimiter())
				.isSameAs(context.getBean("slowLimiter")));
	}

	@Test
	void partialOverrideOfAnAnnotationLimiterBeanFailsStartup() {
		this.contextRunner.withUserConfiguration(MirrorWithLimiterConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.rate-limiter.base-delay=1s")
			.run((context) -> {
				assertThat(context).hasFailed();
				InvalidPropertyException ex = findCause(context.getStartupFailure(), InvalidPropertyException.class);
				assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.configmap-mirror.rate-limiter");
				assertThat(ex.getReason()).contains("'slowLimiter'");
				assertThat(ex.getAction()).contains("rate-limiter.type");
			});
	}

	@Test
	void typedOverrideReplacesAnAnnotationLimiterBean() {
		this.contextRunner.withUserConfiguration(MirrorWithLimiterConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.rate-limiter.type=exponential",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.base-delay=3s")
			.run((context) -> assertThat(
					manager(context).controller("configmap-mirror").rateLimiter().when(new Request("ns", "a")))
				.isEqualTo(Duration.ofSeconds(3)));
	}

	@Test
	void clientJavaRateLimiterBeanIsAdapted() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withBean("legacy", io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter.class,
					() -> new io.kubernetes.client.extended.workqueue.ratelimiter.ItemExponentialFailureRateLimiter<>(
							Duration.ofSeconds(2), Duration.ofSeconds(60)))
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.rate-limiter.bean=legacy")
			.run((context) -> {
				RateLimiter<Request> limiter = manager(context).controller("configmap-mirror").rateLimiter();
				assertThat(limiter.when(new Request("ns", "a"))).isEqualTo(Duration.ofSeconds(2));
			});
	}

	@Test
	void rateLimiterCustomizerAppliesToItsController() {
		RateLimiter<Request> none = RateLimiters.none();
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class, UnnamedConfiguration.class)
			.withBean(RateLimiterCustomizer.class, () -> RateLimiterCustomizer.of("secret", (limiter) -> none))
			.run((context) -> {
				assertThat(manager(context).controller("secret").rateLimiter()).isSameAs(none);
				assertThat(manager(context).controller("configmap-mirror").rateLimiter()).isNotSameAs(none);
			});
	}

	@Test
	void controllerDefinitionBeanBecomesController() {
		this.contextRunner
			.withBean(ControllerDefinition.class,
					() -> ControllerDefinition.builder(V1ConfigMap.class)
						.named("coded")
						.maxConcurrentReconciles(2)
						.reconcile((request) -> Result.done()))
			.withPropertyValues("kube-reconciler.controllers.coded.max-concurrent-reconciles=5")
			.run((context) -> assertThat(manager(context).controller("coded").definition().maxConcurrentReconciles())
				.isEqualTo(5));
	}

	@Test
	void disabledControllerIsLeftOut() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.controllers.configmap-mirror.enabled=false")
			.run((context) -> assertThat(manager(context).controllers()).isEmpty());
	}

	@Test
	void zeroQpsFailsStartup() {
		assertInvalid("kube-reconciler.controllers.configmap-mirror.rate-limiter.qps=0",
				"kube-reconciler.controllers.configmap-mirror.rate-limiter.qps");
	}

	@Test
	void negativeQpsFailsStartup() {
		assertInvalid("kube-reconciler.defaults.rate-limiter.qps=-1", "kube-reconciler.defaults.rate-limiter.qps");
	}

	@Test
	void zeroManagerQpsFailsStartup() {
		assertInvalid("kube-reconciler.manager.rate-limiter.qps=0", "kube-reconciler.manager.rate-limiter.qps");
	}

	@Test
	void zeroBurstFailsStartup() {
		assertInvalid("kube-reconciler.defaults.rate-limiter.burst=0", "kube-reconciler.defaults.rate-limiter.burst");
	}

	@Test
	void baseDelayAboveMaxDelayFailsStartup() {
		assertInvalid("kube-reconciler.defaults.rate-limiter.base-delay=2s",
				"kube-reconciler.defaults.rate-limiter.base-delay",
				"kube-reconciler.defaults.rate-limiter.max-delay=1s");
	}

	@Test
	void badLabelSelectorFailsStartup() {
		assertInvalid("kube-reconciler.controllers.configmap-mirror.label-selector=a in (b",
				"kube-reconciler.controllers.configmap-mirror.label-selector");
	}

	@Test
	void unknownControllerNameFailsStartup() {
		assertInvalid("kube-reconciler.controllers.configmap-mirorr.max-concurrent-reconciles=2",
				"kube-reconciler.controllers.configmap-mirorr");
	}

	@Test
	void unknownLimiterTypeFailsStartupListingTheTypes() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=leaky")
			.run((context) -> {
				assertThat(context).hasFailed();
				BindException bind = findCause(context.getStartupFailure(), BindException.class);
				assertThat(bind.getProperty().getName().toString())
					.isEqualTo("kube-reconciler.defaults.rate-limiter.type");
				FailureAnalysis analysis = new PropertyBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).isEqualTo("Set kube-reconciler.defaults.rate-limiter.type to one of "
						+ "default, exponential, bucket, fast-slow, max-of, max-wait, none, bean.");
			});
	}

	@Test
	void anotherTypeReplacesTheDefaultsAltogether() {
		// defaults.rate-limiter has no type, so it is "default": its base delay is not
		// the bucket's
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.base-delay=1s",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.type=bucket",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.burst=1")
			.run((context) -> {
				RateLimiter<Request> limiter = manager(context).controller("configmap-mirror").rateLimiter();
				assertThat(limiter).isInstanceOf(TokenBucketRateLimiter.class);
				assertThat(((TokenBucketRateLimiter<Request>) limiter).qps()).isEqualTo(RateLimiters.DEFAULT_QPS);
				assertThat(((TokenBucketRateLimiter<Request>) limiter).burst()).isOne();
			});
	}

	@Test
	void limiterTypeBindsInAnyCase() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.type=FAST_SLOW",
					"kube-reconciler.controllers.configmap-mirror.rate-limiter.type=fast-slow",
					"kube-reconciler.defaults.rate-limiter.fast-delay=1s",
					"kube-reconciler.defaults.rate-limiter.slow-delay=1m",
					"kube-reconciler.defaults.rate-limiter.max-fast-attempts=2")
			.run((context) -> assertThat(
					context.getBean(KubeReconcilerProperties.class).getDefaults().getRateLimiter().getType())
				.isEqualTo(RateLimiterProperties.Type.FAST_SLOW));
	}

	@Test
	void unknownLimiterBeanFailsStartup() {
		assertInvalid("kube-reconciler.controllers.configmap-mirror.rate-limiter.bean=missing",
				"kube-reconciler.controllers.configmap-mirror.rate-limiter.bean");
	}

	@Test
	void malformedDurationFailsStartupNamingTheProperty() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.reconcile-timeout=ten seconds")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure())).hasMessageContaining("ten seconds");
				BindException bind = findCause(context.getStartupFailure(), BindException.class);
				assertThat(bind.getProperty().getName().toString())
					.isEqualTo("kube-reconciler.defaults.reconcile-timeout");
			});
	}

	@Test
	void wrongSignatureFailsStartupNamingTheMethod() {
		this.contextRunner.withUserConfiguration(WrongSignatureConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(rootCause(context.getStartupFailure()))
				.hasMessageContaining(WrongSignature.class.getName() + ".reconcile")
				.hasMessageContaining("Result reconcile(Request)");
		});
	}

	@Test
	void duplicateNameFailsStartup() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withBean(ControllerDefinition.class,
					() -> ControllerDefinition.builder(V1ConfigMap.class)
						.named("configmap-mirror")
						.reconcile((request) -> Result.done()))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure()))
					.hasMessageContaining("Duplicate controller name 'configmap-mirror'")
					.hasMessageContaining(Mirror.class.getName() + ".reconcile");
			});
	}

	@Test
	void watchedTypeWithoutModelMetadataFailsStartupNamingTheMethod() {
		this.contextRunner.withBean(Unregistered.class).run((context) -> {
			assertThat(context).hasFailed();
			IllegalStateException failure = findCause(context.getStartupFailure(), IllegalStateException.class);
			assertThat(failure)
				.hasMessageContaining("@Reconciler method " + Unregistered.class.getName() + ".reconcile")
				.hasMessageContaining("ModelMapper.addModelMap");
		});
	}

	@Test
	void voidMethodMeansDoneAndItsExceptionsReachTheController() {
		this.contextRunner.withBean(Throwing.class).run((context) -> {
			ControllerDefinition definition = manager(context).controller("throwing").definition();
			assertThat(((FunctionLogic<?>) definition.reconciler()).function().reconcile(new Request("ns", "fine")))
				.isEqualTo(Result.done());
			assertThatIllegalStateException()
				.isThrownBy(() -> ((FunctionLogic<?>) definition.reconciler()).function()
					.reconcile(new Request("ns", "broken")))
				.withMessage("broken on purpose");
		});
	}

	@Test
	void oneLimiterBeanForTwoControllersKeepsBackoffPerController() {
		this.contextRunner
			.withUserConfiguration(MirrorConfiguration.class, UnnamedConfiguration.class, LimiterConfiguration.class)
			.withPropertyValues("kube-reconciler.defaults.rate-limiter.bean=slowLimiter")
			.run((context) -> {
				RateLimiter<Request> mirror = manager(context).controller("configmap-mirror").rateLimiter();
				RateLimiter<Request> secret = manager(context).controller("secret").rateLimiter();
				Request key = new Request("ns", "same-name");
				assertThat(mirror.when(key)).isEqualTo(Duration.ofSeconds(1));
				assertThat(mirror.when(key)).isEqualTo(Duration.ofSeconds(2));
				assertThat(secret.when(key)).isEqualTo(Duration.ofSeconds(1));
				assertThat(secret.numRequeues(key)).isEqualTo(1);
			});
	}

	@Test
	void leaderElectionAndShutdownTimeoutFollowProperties() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("spring.application.name=mirror-service",
					"kube-reconciler.leader-election.enabled=true",
					"kube-reconciler.leader-election.lease-namespace=ops",
					"kube-reconciler.leader-election.lease-duration=20s",
					"kube-reconciler.leader-election.warmup=false", "kube-reconciler.shutdown-timeout=12s")
			.run((context) -> {
				LeaderElectionSettings settings = manager(context).leaderElection();
				assertThat(settings.leaseName()).isEqualTo("mirror-service-leader");
				assertThat(settings.warmup()).isFalse();
				assertThat(settings.leaseNamespace()).isEqualTo("ops");
				assertThat(settings.timing().leaseDuration()).isEqualTo(Duration.ofSeconds(20));
				assertThat(settings.timing().renewDeadline()).isEqualTo(Duration.ofSeconds(10));
				assertThat(settings.identity()).isNotBlank();
				assertThat(manager(context).shutdownTimeout()).isEqualTo(Duration.ofSeconds(12));
			});
	}

	@Test
	void informersListInPagesOfTheListPageSize() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.run((context) -> assertThat(manager(context).listPageSize())
				.isEqualTo(ControllerManager.DEFAULT_LIST_PAGE_SIZE));
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.cache.list-page-size=0")
			.run((context) -> assertThat(manager(context).listPageSize()).isZero());
	}

	@Test
	void negativeListPageSizeFailsStartup() {
		assertInvalid("kube-reconciler.cache.list-page-size=-1", "kube-reconciler.cache.list-page-size");
	}

	@Test
	void informersReadListsOfUpToTheWatchCacheListMaxWhole() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.run((context) -> assertThat(manager(context).watchCacheListMax())
				.isEqualTo(ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX));
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues("kube-reconciler.cache.watch-cache-list-max=0")
			.run((context) -> assertThat(manager(context).watchCacheListMax()).isZero());
	}

	@Test
	void negativeWatchCacheListMaxFailsStartup() {
		assertInvalid("kube-reconciler.cache.watch-cache-list-max=-1", "kube-reconciler.cache.watch-cache-list-max");
	}

	@Test
	void leaderElectionIsOffByDefault() {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.run((context) -> assertThat(manager(context).leaderElection()).isNull());
	}

	@Test
	void renewDeadlineNotBelowLeaseDurationFailsStartup() {
		assertInvalid("kube-reconciler.leader-election.enabled=true", "kube-reconciler.leader-election.renew-deadline",
				"kube-reconciler.leader-election.renew-deadline=15s");
	}

	private void assertInvalid(String property, String expectedName, String... otherProperties) {
		this.contextRunner.withUserConfiguration(MirrorConfiguration.class)
			.withPropertyValues(property)
			.withPropertyValues(otherProperties)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootCause(context.getStartupFailure())).isInstanceOf(InvalidPropertyException.class);
				InvalidPropertyException ex = (InvalidPropertyException) rootCause(context.getStartupFailure());
				assertThat(ex.getProperty()).isEqualTo(expectedName);
				FailureAnalysis analysis = new InvalidPropertyFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains(expectedName);
				assertThat(analysis.getAction()).isNotBlank();
			});
	}

	private static <E extends Throwable> E findCause(Throwable failure, Class<E> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		throw new AssertionError("No " + type.getName() + " in " + failure);
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	private static ControllerManager manager(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager();
	}

	static class Mirror {

		@Reconciler(name = "configmap-mirror", watches = V1ConfigMap.class)
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	static class MirrorWithLimiter {

		@Reconciler(name = "configmap-mirror", watches = V1ConfigMap.class, rateLimiter = "slowLimiter")
		void reconcile(Request request) {
		}

	}

	static class Unnamed {

		@Reconciler(watches = V1Secret.class)
		void reconcile(Request request) {
		}

	}

	static class Unregistered {

		@Reconciler(watches = UnregisteredResource.class)
		void reconcile(Request request) {
		}

	}

	static class Throwing {

		@Reconciler(name = "throwing", watches = V1ConfigMap.class)
		void reconcile(Request request) {
			if (request.name().equals("broken")) {
				throw new IllegalStateException("broken on purpose");
			}
		}

	}

	/**
	 * A custom resource that nobody registered with client-java's ModelMapper.
	 */
	static class UnregisteredResource implements io.kubernetes.client.common.KubernetesObject {

		@Override
		public io.kubernetes.client.openapi.models.V1ObjectMeta getMetadata() {
			return null;
		}

		@Override
		public String getApiVersion() {
			return "example.com/v1";
		}

		@Override
		public String getKind() {
			return "UnregisteredResource";
		}

	}

	static class WrongSignature {

		@Reconciler(watches = V1ConfigMap.class)
		String reconcile(String key) {
			return key;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MirrorConfiguration {

		@Bean
		Mirror mirror() {
			return new Mirror();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LimiterConfiguration {

		@Bean
		RateLimiter<Request> slowLimiter() {
			return RateLimiters.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MirrorWithLimiterConfiguration extends LimiterConfiguration {

		@Bean
		MirrorWithLimiter mirror() {
			return new MirrorWithLimiter();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnnamedConfiguration {

		@Bean
		Unnamed unnamed() {
			return new Unnamed();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongSignatureConfiguration {

		@Bean
		WrongSignature wrongSignature() {
			return new WrongSignature();
		}

	}

	static class RegistryUser {

		final ControllerRegistry registry;

		RegistryUser(ControllerRegistry registry) {
			this.registry = registry;
		}

	}

}
