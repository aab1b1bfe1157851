package dev.kubereconciler.actuate;

import java.util.function.BooleanSupplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Readiness of the webhook server, a member of the {@code readiness} health group:
 * {@code DOWN} until the server has answered its own HTTPS self-check, verified against
 * the CA the API server trusts, so that no replica is sent the API server's calls while
 * its TLS stack is cold or its certificate would be refused.
 */
public class WebhooksReadinessIndicator extends AbstractHealthIndicator {

	private final BooleanSupplier selfCheckServed;

	/**
	 * Create the indicator.
	 * @param selfCheckServed whether the webhook server has served its self-check, asked
	 * on each check
	 */
	public WebhooksReadinessIndicator(BooleanSupplier selfCheckServed) {
		super("Webhooks readiness check failed");
		this.selfCheckServed = selfCheckServed;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean served = this.selfCheckServed.getAsBoolean();
		builder.status(served ? Status.UP : Status.DOWN).withDetail("selfCheckServed", served);
	}

}
