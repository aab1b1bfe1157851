package dev.kubereconciler.internal.cache;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.jspecify.annotations.Nullable;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Drops the two ERROR lines that client-java's informer threads log when they are
 * interrupted, which is the only way {@code SharedIndexInformer.stop()} ends them.
 *
 * <p>
 * client-java 27 ends an informer's process loop ({@code informer.cache.Controller}) and
 * each of its listeners ({@code informer.cache.ProcessorListener}) by interrupting their
 * threads, and both log that interrupt at ERROR with no way to stop them otherwise: their
 * loops end on nothing else. Only these two messages with an {@link InterruptedException}
 * are dropped; the same loggers' other errors, such as a handler that threw, still reach
 * the log. Installed with Logback only, which Spring Boot uses by default.
 */
final class InformerInterruptFilter extends TurboFilter {

	private static final String PROCESS_LOOP_LOGGER = "io.kubernetes.client.informer.cache.Controller";

	private static final String PROCESS_LOOP_MESSAGE = "DefaultController#processLoop get interrupted";

	private static final String LISTENER_LOGGER = "io.kubernetes.client.informer.cache.ProcessorListener";

	private static final String LISTENER_MESSAGE = "processor interrupted";

	private InformerInterruptFilter() {
		setName(InformerInterruptFilter.class.getName());
	}

	@Override
	public FilterReply decide(@Nullable Marker marker, @Nullable Logger logger, @Nullable Level level,
			@Nullable String format, @Nullable Object @Nullable [] params, @Nullable Throwable t) {
		if (logger == null || level != Level.ERROR || format == null) {
			return FilterReply.NEUTRAL;
		}
		boolean interruptMessage = (PROCESS_LOOP_LOGGER.equals(logger.getName())
				&& format.startsWith(PROCESS_LOOP_MESSAGE))
				|| (LISTENER_LOGGER.equals(logger.getName()) && format.startsWith(LISTENER_MESSAGE));
		return (interruptMessage && isInterrupt(params, t)) ? FilterReply.DENY : FilterReply.NEUTRAL;
	}

	private static boolean isInterrupt(@Nullable Object @Nullable [] params, @Nullable Throwable t) {
		if (t instanceof InterruptedException) {
			return true;
		}
		if (params != null) {
			for (Object param : params) {
				if (param instanceof InterruptedException) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Add the filter to Logback's context, once, if Logback is the SLF4J backend.
	 */
	static void install() {
		ILoggerFactory factory = LoggerFactory.getILoggerFactory();
		if (factory instanceof LoggerContext context && context.getTurboFilterList()
			.stream()
			.noneMatch((filter) -> filter instanceof InformerInterruptFilter)) {
			InformerInterruptFilter filter = new InformerInterruptFilter();
			filter.setContext(context);
			filter.start();
			context.addTurboFilter(filter);
		}
	}

}
