package dev.kubereconciler.sample;

import java.net.URI;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the sample app, under {@code sample}.
 */
@ConfigurationProperties("sample")
public class SampleProperties {

	/**
	 * The configmap-mirror controller.
	 */
	private final Mirror mirror = new Mirror();

	/**
	 * The simulated paid external API that the widget controller calls.
	 */
	private final ExternalApi externalApi = new ExternalApi();

	/**
	 * The widget controller.
	 */
	private final Widgets widgets = new Widgets();

	public Mirror getMirror() {
		return this.mirror;
	}

	public ExternalApi getExternalApi() {
		return this.externalApi;
	}

	public Widgets getWidgets() {
		return this.widgets;
	}

	/**
	 * Settings of the configmap-mirror controller.
	 */
	public static class Mirror {

		/**
		 * Namespace that receives the copies. It must exist; ConfigMaps in it are never
		 * mirrored themselves.
		 */
		private String targetNamespace = "mirrored";

		public String getTargetNamespace() {
			return this.targetNamespace;
		}

		public void setTargetNamespace(String targetNamespace) {
			this.targetNamespace = targetNamespace;
		}

	}

	/**
	 * Settings of the simulated external API.
	 */
	public static class ExternalApi {

		/**
		 * How long each call takes.
		 */
		private Duration latency = Duration.ofMillis(100);

		/**
		 * Fraction of calls, between 0 and 1, that fail at random with a 503.
		 */
		private double failureRate = 0.02;

		/**
		 * How many calls for a "flaky" widget fail before one succeeds.
		 */
		private int flakyFailures = 3;

		/**
		 * Base URL of a widget store that the replicas share, as they would share a real
		 * external system. Unset, the API keeps its widgets in this process's memory and
		 * loses them when it stops.
		 */
		private @Nullable URI storeUrl;

		public Duration getLatency() {
			return this.latency;
		}

		public void setLatency(Duration latency) {
			this.latency = latency;
		}

		public double getFailureRate() {
			return this.failureRate;
		}

		public void setFailureRate(double failureRate) {
			this.failureRate = failureRate;
		}

		public int getFlakyFailures() {
			return this.flakyFailures;
		}

		public void setFlakyFailures(int flakyFailures) {
			this.flakyFailures = flakyFailures;
		}

		public @Nullable URI getStoreUrl() {
			return this.storeUrl;
		}

		public void setStoreUrl(@Nullable URI storeUrl) {
			this.storeUrl = storeUrl;
		}

	}

	/**
	 * Settings of the widget controller.
	 */
	public static class Widgets {

		/**
		 * How often a ready widget is checked against the external API, which may have
		 * lost it.
		 */
		private Duration verifyPeriod = Duration.ofSeconds(30);

		/**
		 * Backoff of the widgetRateLimiter bean.
		 */
		private final Retry retry = new Retry();

		public Duration getVerifyPeriod() {
			return this.verifyPeriod;
		}

		public void setVerifyPeriod(Duration verifyPeriod) {
			this.verifyPeriod = verifyPeriod;
		}

		public Retry getRetry() {
			return this.retry;
		}

	}

	/**
	 * Backoff of failed widget reconciles.
	 */
	public static class Retry {

		/**
		 * Delay after the first failure of a widget; it doubles with each further
		 * failure.
		 */
		private Duration baseDelay = Duration.ofMillis(500);

		/**
		 * Longest delay between two attempts for one widget.
		 */
		private Duration maxDelay = Duration.ofMinutes(10);

		/**
		 * Retries per second across all widgets.
		 */
		private double qps = 2;

		/**
		 * Retries that may start at once across all widgets.
		 */
		private int burst = 10;

		public Duration getBaseDelay() {
			return this.baseDelay;
		}

		public void setBaseDelay(Duration baseDelay) {
			this.baseDelay = baseDelay;
		}

		public Duration getMaxDelay() {
			return this.maxDelay;
		}

		public void setMaxDelay(Duration maxDelay) {
			this.maxDelay = maxDelay;
		}

		public double getQps() {
			return this.qps;
		}

		public void setQps(double qps) {
			this.qps = qps;
		}

		public int getBurst() {
			return this.burst;
		}

		public void setBurst(int burst) {
			this.burst = burst;
		}

	}

}
