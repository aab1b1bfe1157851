package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

import dev.kubereconciler.cache.CacheOptions;
import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.cluster.ClusterProvider;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.CompositeControllerListener;
import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.crd.CrdInstaller;
import dev.kubereconciler.events.ApiEventSink;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.manager.ManagerBuilder;
import dev.kubereconciler.observation.ReconcileObservations;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;

/**
 * Auto-configuration that runs {@code @Reconciler} methods and
 * {@link ControllerDefinition} beans as managed Kubernetes controllers: the client, the
 * informer factory, the CRDs applied at startup, the manager bucket and the manager
 * itself, built from the definitions a {@link ControllerDefinitionSource} resolves.
 */
@AutoConfiguration(
		afterName = { "io.kubernetes.client.spring.extended.controller.config.KubernetesInformerAutoConfiguration",
				"io.kubernetes.client.spring.extended.network.config.KubernetesEndpointsAutoConfiguration" })
@ConditionalOnClass(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeReconcilerProperties.class)
public final class KubeReconcilerAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(KubeReconcilerAutoConfiguration.class);

	/** The name of the manager-level bucket bean. */
	public static final String MANAGER_RATE_LIMITER_BEAN_NAME = "managerRateLimiter";

	@Bean
	@ConditionalOnMissingBean
	ApiClient kubernetesApiClient() throws IOException {
		// watches stay open for minutes without a byte; informers require no read timeout
		return ClientBuilder.standard().setReadTimeout(Duration.ZERO).build();
	}

	// a bean that runs while the context starts: the CRDs are served before the
	// controllers, which start with the context's lifecycle, list their types. The
	// property is read when it runs, not as a condition: Spring AOT settles conditions
	// at build time, and this one is set per cluster
	@Bean
	InitializingBean kubeReconcilerCrds(ApiClient apiClient, KubeReconcilerProperties properties,
			ResourceLoader resourceLoader) {
		return () -> {
			if (!properties.getCrds().isApply()) {
				return;
			}
			ClassLoader classLoader = (resourceLoader.getClassLoader() != null) ? resourceLoader.getClassLoader()
					: KubeReconcilerAutoConfiguration.class.getClassLoader();
			List<CrdFiles.Crd> crds = new CrdFiles(classLoader).find(properties.getCrds().getLocations(), List.of());
			if (crds.isEmpty()) {
				logger.warn("kube-reconciler.crds.apply is on, but no CRD is at {}",
						properties.getCrds().getLocations());
				return;
			}
			new CrdInstaller(apiClient, "kube-reconciler").install(crds);
			logger.info("Applied {} CustomResourceDefinition(s): {}", crds.size(),
					crds.stream().map(CrdFiles.Crd::name).toList());
		};
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
		return ControllerManager.informerFactory(apiClient);
	}

	@Bean(MANAGER_RATE_LIMITER_BEAN_NAME)
	@ConditionalOnMissingBean(name = MANAGER_RATE_LIMITER_BEAN_NAME)
	TokenBucketRateLimiter<Object> managerRateLimiter(KubeReconcilerProperties properties) {
		return ManagerSettings.bucket(properties.getManager().getRateLimiter());
	}

	@Bean
	ManagedControllers managedControllers(KubeReconcilerProperties properties, ApiClient apiClient,
			SharedInformerFactory informerFactory, ControllerDefinitionSource definitions,
			@Qualifier(MANAGER_RATE_LIMITER_BEAN_NAME) TokenBucketRateLimiter<?> managerRateLimiter,
			ObjectProvider<ControllerListener> listeners, ObjectProvider<CacheTransforms> cacheTransforms,
			ObjectProvider<EventRecorders> eventRecorders, ObjectProvider<ReconcileObservations> observations,
			ObjectProvider<CacheOptions> cacheOptions, ObjectProvider<FieldIndex<?>> indexes, Environment environment,
			ObjectProvider<ClusterProvider> clusterProviders) {
		return new ManagedControllers(definitions::definitions, (resolved) -> {
			ManagerBuilder builder = ControllerManager.builder(apiClient)
				.informerFactory(informerFactory)
				.gate(ManagerSettings.gate(properties.getManager().getRateLimiter(), managerRateLimiter))
				.shutdownTimeout(ManagerSettings.shutdownTimeout(properties))
				.listPageSize(ManagerSettings.listPageSize(properties))
				.watchCacheListMax(ManagerSettings.watchCacheListMax(properties))
				.priorityQueue(properties.getDefaults().isPriorityQueue())
				.cacheTransforms(cacheTransforms.getIfAvailable(() -> CacheTransforms.defaults()
					.stripManagedFields(properties.getCache().isStripManagedFields())
					.compact(properties.getCache().isCompact())))
				.cacheOptions(CacheOptionsFactory.create(cacheOptions.getIfAvailable(CacheOptions::defaults),
						properties.getCache().getResources(), indexes.orderedStream().toList()))
				.listener(CompositeControllerListener.of(listeners.orderedStream().toList()));
			eventRecorders.ifAvailable((recorders) -> builder.eventRecorders(recorders::forController));
			observations.ifAvailable(builder::observations);
			resolved.forEach(builder::controller);
			// clusters (issue 40): the fleet's providers, and its Events in each cluster
			ClusterSettings.providers(properties, apiClient).forEach(builder::clusterProvider);
			clusterProviders.orderedStream().forEach(builder::clusterProvider);
			eventRecorders.ifAvailable((recorders) -> builder
				.clusterEvents((client) -> recorders.withDestination(new ApiEventSink(client))));
			if (properties.getLeaderElection().isEnabled()) {
				builder
					.leaderElection(LeaderElectionSettingsFactory.create(properties.getLeaderElection(), environment));
			}
			if (properties.getSharding().isEnabled()) {
				ShardingConfigurer.configure(builder, resolved, properties, environment,
						LeaderElectionSettingsFactory
							.podNamespace(LeaderElectionSettingsFactory.SERVICE_ACCOUNT_NAMESPACE),
						LeaderElectionSettingsFactory.identity());
			}
			return builder.build();
		}, properties.isAutoStartup());
	}

}
