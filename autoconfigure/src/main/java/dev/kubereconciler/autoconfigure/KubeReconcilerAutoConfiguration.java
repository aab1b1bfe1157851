package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.KubeReconcilerProperties.Cause;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties.LeaderElection;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties.ManagerRateLimiter;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.controller.ControllerManager;
import dev.kubereconciler.controller.LeaderElectionSettings;
import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.queue.AddCause;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Request;

/**
 * Auto-configuration that runs {@code @Reconciler} methods and
 * {@link ControllerDefinition} beans as managed Kubernetes controllers.
 */
@AutoConfiguration(afterName = {
		"io.kubernetes.client.spring.extended.controller.config.KubernetesInformerAutoConfiguration",
		"io.kubernetes.client.spring.extended.network.config.KubernetesEndpointsAutoConfiguration" })
@ConditionalOnClass(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeReconcilerProperties.class)
public final class KubeReconcilerAutoConfiguration {

	/** The name of the manager-level bucket bean. */
	public static final String MANAGER_RATE_LIMITER_BEAN_NAME = "managerRateLimiter";

	@Bean
	@ConditionalOnMissingBean
	ApiClient kubernetesApiClient() throws IOException {
		// watches stay open for minutes without a byte; informers require no read timeout
		return ClientBuilder.standard().setReadTimeout(Duration.ZERO).build();
	}

	// its informer threads come from a cached pool, which only a full stop shuts down
	@Bean(destroyMethod = "stopAllRegisteredInformers")
	@ConditionalOnMissingBean
	SharedInformerFactory sharedInformerFactory(ApiClient apiClient) {
		if (apiClient.getReadTimeout() != 0) {
			throw new IllegalStateException("The ApiClient bean has a read timeout of " + apiClient.getReadTimeout()
					+ " ms, but client-java informers need none: build it with "
					+ "ClientBuilder.standard().setReadTimeout(Duration.ZERO), call apiClient.setReadTimeout(0), "
					+ "or define your own SharedInformerFactory bean");
		}
		return new SharedInformerFactory(apiClient);
	}

	@Bean
	static ReconcilerMethodProcessor reconcilerMethodProcessor() {
		return new ReconcilerMethodProcessor();
	}

	@Bean(MANAGER_RATE_LIMITER_BEAN_NAME)
	@ConditionalOnMissingBean(name = MANAGER_RATE_LIMITER_BEAN_NAME)
	TokenBucketRateLimiter<Object> managerRateLimiter(KubeReconcilerProperties properties) {
		ManagerRateLimiter config = properties.getManager().getRateLimiter();
		if (config.getQps() == null) {
			return RateLimiters.bucket(Double.POSITIVE_INFINITY, (config.getBurst() != null) ? config.getBurst() : 1);
		}
		RateLimiterFactory.requireQps("kube-reconciler.manager.rate-limiter.qps", config.getQps());
		int burst = (config.getBurst() != null) ? config.getBurst() : (int) Math.max(1, Math.ceil(config.getQps()));
		RateLimiterFactory.requireBurst("kube-reconciler.manager.rate-limiter.burst", burst);
		return RateLimiters.bucket(config.getQps(), burst);
	}

	@Bean
	@ConditionalOnMissingBean
	ManagedControllers managedControllers(KubeReconcilerProperties properties, ApiClient apiClient,
			SharedInformerFactory informerFactory, ReconcilerMethodProcessor methods,
			ObjectProvider<ControllerDefinition> definitionBeans,
			ObjectProvider<RateLimiterCustomizer> customizers,
			@Qualifier(MANAGER_RATE_LIMITER_BEAN_NAME) TokenBucketRateLimiter<?> managerRateLimiter,
			ObjectProvider<ControllerListener> listeners, BeanFactory beanFactory, Environment environment) {
		ControllerDefinitions definitions = new ControllerDefinitions(properties,
				(name) -> RateLimiterBeans.find(beanFactory, name), customizers.orderedStream().toList());
		return new ManagedControllers(
				() -> definitions.resolve(methods.getMethods(), definitionBeans.orderedStream().toList()),
				(resolved) -> {
					ControllerManager.Builder builder = ControllerManager.builder(apiClient)
						.informerFactory(informerFactory)
						.gate(gate(properties, managerRateLimiter))
						.shutdownTimeout(properties.getShutdownTimeout())
						.listener(CompositeControllerListener.of(listeners.orderedStream().toList()));
					resolved.forEach(builder::controller);
					if (properties.getLeaderElection().isEnabled()) {
						builder.leaderElection(leaderElection(properties.getLeaderElection(), environment));
					}
					if (properties.getSharding().isEnabled()) {
						ShardingConfigurer.configure(builder, resolved, properties, environment, podNamespace(),
								identity());
					}
					return builder.build();
				}, properties.isAutoStartup());
	}

	private static ManagerGate gate(KubeReconcilerProperties properties, TokenBucketRateLimiter<?> bucket) {
		ManagerRateLimiter config = properties.getManager().getRateLimiter();
		EnumSet<AddCause> causes = EnumSet.noneOf(AddCause.class);
		for (Cause cause : config.getAppliesTo()) {
			causes.add(AddCause.valueOf(cause.name()));
		}
		if (config.getMaxWait() != null && config.getMaxWait().isNegative()) {
			throw new InvalidPropertyException("kube-reconciler.manager.rate-limiter.max-wait", config.getMaxWait(),
					"the max wait cannot be negative", "Set a positive duration, or remove it for no limit.");
		}
		return new ManagerGate(bucket, causes, config.getMaxWait());
	}

	static LeaderElectionSettings leaderElection(LeaderElection config, Environment environment) {
		String name = (config.getLeaseName() != null) ? config.getLeaseName()
				: environment.getProperty("spring.application.name", "kube-reconciler") + "-leader";
		String namespace = (config.getLeaseNamespace() != null) ? config.getLeaseNamespace() : podNamespace();
		try {
			return new LeaderElectionSettings(name, namespace, identity(), config.getLeaseDuration(),
					config.getRenewDeadline(), config.getRetryPeriod());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException("kube-reconciler.leader-election", config.getLeaseDuration() + "/"
					+ config.getRenewDeadline() + "/" + config.getRetryPeriod(), ex.getMessage(),
					"Keep retry-period < renew-deadline < lease-duration, for example 2s, 10s and 15s.");
		}
	}

	private static String podNamespace() {
		Path path = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
		try {
			return Files.isReadable(path) ? Files.readString(path).trim() : "default";
		}
		catch (IOException ex) {
			return "default";
		}
	}

	private static String identity() {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			host = "unknown";
		}
		return host + "_" + UUID.randomUUID();
	}

	/**
	 * Looks up limiter beans by name, adapting client-java limiters.
	 */
	static final class RateLimiterBeans {

		private RateLimiterBeans() {
		}

		@SuppressWarnings("unchecked")
		static RateLimiter<Request> find(BeanFactory beanFactory, String name) {
			if (!beanFactory.containsBean(name)) {
				return null;
			}
			Object bean = beanFactory.getBean(name);
			if (bean instanceof RateLimiter<?> limiter) {
				return (RateLimiter<Request>) limiter;
			}
			if (bean instanceof io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<?> clientJava) {
				return RateLimiters
					.fromClientJava((io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<Request>) clientJava);
			}
			return null;
		}

	}


}
