package dev.kubereconciler.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.kubereconciler.webhook.registration.WebhookConfigurations;
import dev.kubereconciler.webhook.registration.WebhookRegistration;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Registers the benchmark's webhook with the API server and deletes its configuration,
 * each time creating probe ConfigMaps until the API server acts on the change, which it
 * learns of from a watch a moment after the change is written.
 */
final class WebhookSwitch {

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

	private final WebhookRegistration registration;

	private final Webhooks webhooks;

	private final WebhookConfigurations configurations;

	private final SettingsValidator validator;

	private final Probe probe;

	private boolean registered;

	private int probes;

	WebhookSwitch(WebhookRegistration registration, Webhooks webhooks, WebhookConfigurations configurations,
			SettingsValidator validator, Probe probe) {
		this.registration = registration;
		this.webhooks = webhooks;
		this.configurations = configurations;
		this.validator = validator;
		this.probe = probe;
	}

	/**
	 * Register the webhook, unless it is, and wait until the API server calls it.
	 * @return how many probes it took
	 * @throws Exception if a probe fails, or the API server does not call the webhook
	 * within a minute
	 */
	int on() throws Exception {
		if (!this.registered) {
			this.registration.register(this.webhooks, this.configurations);
			this.registered = true;
		}
		return await(true);
	}

	/**
	 * Delete the webhook's configuration, if registered, and wait until the API server no
	 * longer calls it.
	 * @return how many probes it took
	 * @throws Exception if a probe fails, or the API server still calls the webhook after
	 * a minute
	 */
	int off() throws Exception {
		if (this.registered) {
			this.registration.unregister(this.configurations);
			this.registered = false;
		}
		return await(false);
	}

	/**
	 * Delete the webhook's configuration, if registered, without waiting.
	 */
	void close() {
		if (this.registered) {
			this.registration.unregister(this.configurations);
			this.registered = false;
		}
	}

	private int await(boolean called) throws Exception {
		long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
		for (int probes = 1;; probes++) {
			String name = "probe-" + this.probes++;
			this.probe.create(name);
			// the validator runs before the create is answered, when the API server calls
			// it
			if (this.validator.saw(name) == called) {
				return probes;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The API server still " + (called ? "does not call" : "calls")
						+ " the webhook " + PROBE_TIMEOUT.toSeconds() + " s after it was "
						+ (called ? "registered" : "unregistered"));
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
		}
	}

	/**
	 * Creates a ConfigMap of the benchmark's namespace, which the webhook judges when
	 * registered.
	 */
	@FunctionalInterface
	interface Probe {

		void create(String name) throws Exception;

	}

}
