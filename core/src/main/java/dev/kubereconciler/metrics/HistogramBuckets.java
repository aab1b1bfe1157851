package dev.kubereconciler.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.util.DoubleFormat;

/**
 * The histogram bounds a registry can tell apart. Prometheus publishes each bound as the
 * number it is; most other registries (the {@code SimpleMeterRegistry} of Spring Boot's
 * tests, step and Dropwizard registries) publish a histogram as gauges named
 * {@code <name>.histogram} whose {@code le} tag has at most six decimals, so
 * controller-runtime's 10 ns and 100 ns bounds both print as {@code 0}: the second gauge
 * is refused with "This Gauge has been already registered" and its bucket lost.
 */
final class HistogramBuckets {

	// by name, as core has no compile dependency on either Prometheus registry
	private static final Set<String> PROMETHEUS = Set.of("io.micrometer.prometheusmetrics.PrometheusMeterRegistry",
			"io.micrometer.prometheus.PrometheusMeterRegistry");

	private HistogramBuckets() {
	}

	/**
	 * Return the bounds to give a timer in a registry: all of them where the registry
	 * publishes exact bounds, otherwise those the common format tells apart.
	 * @param registry the registry
	 * @param buckets the bounds, ascending
	 * @return the bounds to use
	 */
	static Duration[] forRegistry(MeterRegistry registry, Duration[] buckets) {
		return publishesExactBounds(registry) ? buckets : distinctInCommonFormat(buckets);
	}

	/**
	 * Return the bounds whose {@code le} tag in Micrometer's common format is not
	 * {@code 0} and differs from every smaller bound's.
	 * @param buckets the bounds, ascending
	 * @return the bounds that keep a gauge of their own
	 */
	static Duration[] distinctInCommonFormat(Duration[] buckets) {
		List<Duration> kept = new ArrayList<>();
		Set<String> tags = new HashSet<>();
		for (Duration bucket : buckets) {
			// as HistogramGauges.registerWithCommonFormat formats a timer's bound
			String tag = DoubleFormat.wholeOrDecimal(bucket.toNanos() / 1e9);
			if (!tag.equals("0") && tags.add(tag)) {
				kept.add(bucket);
			}
		}
		return kept.toArray(Duration[]::new);
	}

	private static boolean publishesExactBounds(MeterRegistry registry) {
		if (registry instanceof CompositeMeterRegistry composite) {
			Set<MeterRegistry> children = composite.getRegistries();
			return !children.isEmpty() && children.stream().allMatch(HistogramBuckets::publishesExactBounds);
		}
		for (Class<?> type = registry.getClass(); type != null; type = type.getSuperclass()) {
			if (PROMETHEUS.contains(type.getName())) {
				return true;
			}
		}
		return false;
	}

}
