package dev.kubereconciler.webhook.server;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the JDK's HTTP server needs beyond its API to serve webhooks well: the property
 * that turns Nagle's algorithm off, and its stop delay in whole seconds.
 */
final class JdkServerQuirks {

	// the server's own log category, where operators look for its warnings
	private static final Logger logger = LoggerFactory.getLogger(WebhookServer.class);

	/**
	 * The JDK's property that turns on {@code TCP_NODELAY} for its HTTP server's
	 * connections.
	 */
	static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

	private JdkServerQuirks() {
	}

	/**
	 * Return a stop's grace period as the JDK's server counts it, in whole seconds
	 * rounded up.
	 * @param grace the grace period
	 * @return the seconds, 0 for none
	 */
	static int wholeSeconds(Duration grace) {
		if (grace.isNegative() || grace.isZero()) {
			return 0;
		}
		long seconds = grace.getSeconds() + ((grace.getNano() > 0) ? 1 : 0);
		return (int) Math.min(seconds, Integer.MAX_VALUE);
	}

	// The JDK's server writes a response's headers and its body in two writes, and sets
	// TCP_NODELAY only when this property is true. Without it, Nagle's algorithm holds
	// the body back until the API server acknowledges the headers, which it delays by up
	// to 40 ms: every webhook call would take that long. The property is read once, when
	// the JDK's server configuration is first loaded, so it is set before the first
	// server is created, unless the application set it itself.
	static void enableNoDelay() {
		String value = System.getProperty(NO_DELAY_PROPERTY);
		if (value == null) {
			System.setProperty(NO_DELAY_PROPERTY, "true");
		}
		else if (!Boolean.parseBoolean(value)) {
			logger.warn(
					"{}={}: each webhook answer may wait up to 40 ms for the API server's delayed " + "acknowledgement",
					NO_DELAY_PROPERTY, value);
		}
	}

}
