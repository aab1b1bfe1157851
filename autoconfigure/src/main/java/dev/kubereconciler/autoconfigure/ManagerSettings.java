package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;

import dev.kubereconciler.controller.ManagerGate;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.ratelimit.TokenBucketRateLimiter;
import dev.kubereconciler.reconcile.Trigger;

/**
 * Turns the manager-level properties ({@code kube-reconciler.manager.*},
 * {@code kube-reconciler.shutdown-timeout} and
 * {@code kube-reconciler.cache.list-page-size}) into the values a manager takes, and
 * rejects values that cannot work with an {@link InvalidPropertyException} naming the
 * property.
 */
final class ManagerSettings {

	private static final String BUCKET = "kube-reconciler.manager.rate-limiter.";

	private ManagerSettings() {
	}

	static TokenBucketRateLimiter<Object> bucket(ManagerRateLimiterProperties config) {
		if (config.getBurst() != null) {
			RateLimiterFactory.requireBurst(BUCKET + "burst", config.getBurst());
		}
		if (config.getQps() == null) {
			// unlimited, but still a bucket, so that its tokens are reported and it can
			// be retuned
			return RateLimiters.bucket(Double.POSITIVE_INFINITY, (config.getBurst() != null) ? config.getBurst() : 1);
		}
		RateLimiterFactory.requireQps(BUCKET + "qps", config.getQps());
		int burst = (config.getBurst() != null) ? config.getBurst() : (int) Math.max(1, Math.ceil(config.getQps()));
		return RateLimiters.bucket(config.getQps(), burst);
	}

	static ManagerGate gate(ManagerRateLimiterProperties config, TokenBucketRateLimiter<?> bucket) {
		Duration maxWait = config.getMaxWait();
		if (maxWait != null && maxWait.isNegative()) {
			throw new InvalidPropertyException(BUCKET + "max-wait", maxWait, "the max wait cannot be negative",
					"Set " + BUCKET + "max-wait to 0 or a positive duration, or remove it for no limit.");
		}
		EnumSet<Trigger> causes = EnumSet.noneOf(Trigger.class);
		causes.addAll(config.getAppliesTo());
		if (!Trigger.queued().containsAll(causes)) {
			throw new InvalidPropertyException(BUCKET + "applies-to", Trigger.RESYNC,
					"a resync is queued as an event, so the manager bucket cannot tell it apart",
					"Set " + BUCKET + "applies-to to event, retry and requeue-after, or a part of them.");
		}
		return new ManagerGate(bucket, causes, maxWait, config.getAcrossClusters());
	}

	static int listPageSize(KubeReconcilerProperties properties) {
		int pageSize = properties.getCache().getListPageSize();
		if (pageSize < 0) {
			throw new InvalidPropertyException("kube-reconciler.cache.list-page-size", pageSize,
					"the page size cannot be negative",
					"Set kube-reconciler.cache.list-page-size to a positive number of objects per list request, "
							+ "or to 0 to list everything in one request.");
		}
		return pageSize;
	}

	static int watchCacheListMax(KubeReconcilerProperties properties) {
		int max = properties.getCache().getWatchCacheListMax();
		if (max < 0) {
			throw new InvalidPropertyException("kube-reconciler.cache.watch-cache-list-max", max,
					"the number of objects cannot be negative",
					"Set kube-reconciler.cache.watch-cache-list-max to the most objects an informer reads whole "
							+ "from the watch cache, or to 0 to read every list in pages.");
		}
		return max;
	}

	static Duration shutdownTimeout(KubeReconcilerProperties properties) {
		return PropertyDurations.requireNotNegative("kube-reconciler.shutdown-timeout",
				properties.getShutdownTimeout());
	}

}
