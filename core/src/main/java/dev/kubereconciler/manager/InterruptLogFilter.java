package dev.kubereconciler.manager;

import java.util.List;

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
 * Drops the ERROR lines that client-java's informer and leader election threads log when
 * the manager ends them by interrupting them, as a normal stop does.
 *
 * <p>
 * A last resort, because client-java 27 leaves no other way: an informer's process loop
 * ({@code informer.cache.Controller}) and each of its listeners
 * ({@code informer.cache.ProcessorListener}) end on nothing but an interrupt, which
 * {@code SharedIndexInformer.stop()} sends; a candidate's acquire loop
 * ({@code LeaderElector}) ends on nothing but an interrupt, and the leader's renew loop
 * ends on its own only after a retry period. Each logs its interrupt at ERROR. Only these
 * messages, and only with an {@link InterruptedException}, are dropped: the same loggers'
 * other errors, such as a handler that threw, still reach the log. It works with Logback,
 * Spring Boot's default, only; {@link InterruptLogs} installs it when Logback is there.
 */
final class InterruptLogFilter extends TurboFilter {

	private static final List<Line> INTERRUPTS = List.of(
			new Line("io.kubernetes.client.informer.cache.Controller", "DefaultController#processLoop get interrupted"),
			new Line("io.kubernetes.client.informer.cache.ProcessorListener", "processor interrupted"),
			new Line("io.kubernetes.client.extended.leaderelection.LeaderElector",
					"LeaderElection acquire loop gets interrupted"),
			new Line("io.kubernetes.client.extended.leaderelection.LeaderElector",
					"LeaderElection renew loop gets interrupted"));

	private InterruptLogFilter() {
		setName(InterruptLogFilter.class.getName());
	}

	@Override
	public FilterReply decide(@Nullable Marker marker, @Nullable Logger logger, @Nullable Level level,
			@Nullable String format, @Nullable Object @Nullable [] params, @Nullable Throwable t) {
		if (logger == null || level != Level.ERROR || format == null) {
			return FilterReply.NEUTRAL;
		}
		String name = logger.getName();
		boolean interruptLine = INTERRUPTS.stream().anyMatch((line) -> line.matches(name, format));
		return (interruptLine && isInterrupt(params, t)) ? FilterReply.DENY : FilterReply.NEUTRAL;
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
		if (factory instanceof LoggerContext context
				&& context.getTurboFilterList().stream().noneMatch((filter) -> filter instanceof InterruptLogFilter)) {
			InterruptLogFilter filter = new InterruptLogFilter();
			filter.setContext(context);
			filter.start();
			context.addTurboFilter(filter);
		}
	}

	private record Line(String logger, String messageStart) {

		boolean matches(String name, String format) {
			return this.logger.equals(name) && format.startsWith(this.messageStart);
		}

	}

}
