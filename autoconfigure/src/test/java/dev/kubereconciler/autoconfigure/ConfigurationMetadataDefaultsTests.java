package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.cache.CacheTransforms;
import dev.kubereconciler.cluster.AccessProviders;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.leaderelection.LeaseTiming;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.ratelimit.RateLimiters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults that the IDE shows come from the generated configuration metadata; these
 * tests hold them to the public constants the code uses, so that the two cannot drift
 * apart.
 */
class ConfigurationMetadataDefaultsTests {

	private final DocumentContext metadata = read();

	@Test
	void rateLimiterDefaultsAreTheRateLimitersConstants() {
		assertThat(defaultOf("kube-reconciler.defaults.rate-limiter.base-delay"))
			.isEqualTo(format(RateLimiters.DEFAULT_BASE_DELAY));
		assertThat(defaultOf("kube-reconciler.defaults.rate-limiter.max-delay"))
			.isEqualTo(format(RateLimiters.DEFAULT_MAX_DELAY));
		assertThat(((Number) defaultOf("kube-reconciler.defaults.rate-limiter.qps")).doubleValue())
			.isEqualTo(RateLimiters.DEFAULT_QPS);
		assertThat(((Number) defaultOf("kube-reconciler.defaults.rate-limiter.burst")).intValue())
			.isEqualTo(RateLimiters.DEFAULT_BURST);
	}

	@Test
	void controllerDefaultsAreTheControllerDefinitionConstants() {
		assertThat(defaultOf("kube-reconciler.defaults.reconcile-timeout"))
			.isEqualTo(format(ControllerDefinition.DEFAULT_RECONCILE_TIMEOUT));
		assertThat(defaultOf("kube-reconciler.defaults.cache-sync-timeout"))
			.isEqualTo(format(ControllerDefinition.DEFAULT_CACHE_SYNC_TIMEOUT));
		assertThat(defaultOf("kube-reconciler.defaults.resync-period"))
			.isEqualTo(format(ControllerDefinition.DEFAULT_RESYNC_PERIOD));
	}

	@Test
	void managerDefaultsAreTheManagerConstants() {
		assertThat(defaultOf("kube-reconciler.shutdown-timeout"))
			.isEqualTo(format(ControllerManager.DEFAULT_SHUTDOWN_TIMEOUT));
		assertThat(defaultOf("kube-reconciler.leader-election.lease-duration"))
			.isEqualTo(format(LeaseTiming.DEFAULT_LEASE_DURATION));
		assertThat(defaultOf("kube-reconciler.leader-election.renew-deadline"))
			.isEqualTo(format(LeaseTiming.DEFAULT_RENEW_DEADLINE));
		assertThat(defaultOf("kube-reconciler.leader-election.retry-period"))
			.isEqualTo(format(LeaseTiming.DEFAULT_RETRY_PERIOD));
		assertThat(defaultOf("kube-reconciler.leader-election.warmup"))
			.isEqualTo(LeaderElectionSettings.DEFAULT_WARMUP);
	}

	@Test
	void cacheDefaultsAreThoseOfTheDefaultTransforms() {
		assertThat(defaultOf("kube-reconciler.cache.compact")).isEqualTo(CacheTransforms.defaults().isCompact());
		assertThat(defaultOf("kube-reconciler.cache.strip-managed-fields"))
			.isEqualTo(CacheTransforms.defaults().isStripManagedFields());
		KubeReconcilerProperties.Cache cache = new KubeReconcilerProperties().getCache();
		assertThat(cache.isCompact()).isEqualTo(CacheTransforms.defaults().isCompact());
		assertThat(cache.isStripManagedFields()).isEqualTo(CacheTransforms.defaults().isStripManagedFields());
	}

	@Test
	void listPageSizeDefaultIsTheManagersConstant() {
		assertThat(((Number) defaultOf("kube-reconciler.cache.list-page-size")).intValue())
			.isEqualTo(ControllerManager.DEFAULT_LIST_PAGE_SIZE);
		assertThat(new KubeReconcilerProperties().getCache().getListPageSize())
			.isEqualTo(ControllerManager.DEFAULT_LIST_PAGE_SIZE);
	}

	@Test
	void watchCacheListMaxDefaultIsTheManagersConstant() {
		assertThat(((Number) defaultOf("kube-reconciler.cache.watch-cache-list-max")).intValue())
			.isEqualTo(ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX);
		assertThat(new KubeReconcilerProperties().getCache().getWatchCacheListMax())
			.isEqualTo(ControllerManager.DEFAULT_WATCH_CACHE_LIST_MAX);
	}

	@Test
	void propertiesStartWithTheSameDefaults() {
		KubeReconcilerProperties properties = new KubeReconcilerProperties();
		assertThat(properties.getShutdownTimeout()).isEqualTo(ControllerManager.DEFAULT_SHUTDOWN_TIMEOUT);
		assertThat(properties.getDefaults().getReconcileTimeout())
			.isEqualTo(ControllerDefinition.DEFAULT_RECONCILE_TIMEOUT);
		assertThat(properties.getDefaults().getCacheSyncTimeout())
			.isEqualTo(ControllerDefinition.DEFAULT_CACHE_SYNC_TIMEOUT);
		assertThat(properties.getDefaults().getResyncPeriod()).isEqualTo(ControllerDefinition.DEFAULT_RESYNC_PERIOD);
		assertThat(properties.getLeaderElection().getLeaseDuration()).isEqualTo(LeaseTiming.DEFAULT_LEASE_DURATION);
		assertThat(properties.getLeaderElection().isWarmup()).isEqualTo(LeaderElectionSettings.DEFAULT_WARMUP);
	}

	private Object defaultOf(String name) {
		List<Object> values = this.metadata.read("$.properties[?(@.name == '" + name + "')].defaultValue");
		assertThat(values).as("default of %s in the metadata", name).hasSize(1);
		return values.get(0);
	}

	@Test
	void execTimeoutDefaultIsTheAccessProvidersConstant() {
		assertThat(defaultOf("kube-reconciler.cluster-profiles.exec-timeout"))
			.isEqualTo(format(AccessProviders.DEFAULT_TIMEOUT));
	}

	private static String format(Duration duration) {
		return InvalidPropertyFailureAnalyzer.format(duration);
	}

	private static DocumentContext read() {
		try {
			return JsonPath
				.parse(Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json").toFile());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Build the module first: the metadata is generated at compile time", ex);
		}
	}

}
