package dev.kubereconciler.manager;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link InterruptLogFilter} drops client-java's interrupt lines and nothing else those
 * loggers say, with the messages and arguments client-java 27 logs them with.
 */
class InterruptLogFilterTests {

	private static final String PROCESS_LOOP = "io.kubernetes.client.informer.cache.Controller";

	private static final String LISTENER = "io.kubernetes.client.informer.cache.ProcessorListener";

	private static final String ELECTOR = "io.kubernetes.client.extended.leaderelection.LeaderElector";

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Map<String, Level> levels = new HashMap<>();

	@BeforeEach
	void captureLogs() {
		for (String name : List.of(PROCESS_LOOP, LISTENER, ELECTOR)) {
			Logger logger = logger(name);
			this.levels.put(name, logger.getLevel());
			logger.setLevel(Level.INFO);
			logger.addAppender(this.logs);
		}
		this.logs.start();
		InterruptLogFilter.install();
	}

	@AfterEach
	void restoreLogs() {
		this.levels.forEach((name, level) -> {
			logger(name).detachAppender(this.logs);
			logger(name).setLevel(level);
		});
	}

	@Test
	void dropsTheInterruptsOfInformersAndOfLeaderElection() {
		InterruptedException interrupt = new InterruptedException();
		logger(PROCESS_LOOP).error("DefaultController#processLoop get interrupted {}", interrupt.getMessage(),
				interrupt);
		logger(LISTENER).error("processor interrupted: {}", interrupt);
		logger(ELECTOR).error("LeaderElection acquire loop gets interrupted", interrupt);
		logger(ELECTOR).error("LeaderElection renew loop gets interrupted", interrupt);
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void keepsEveryOtherErrorOfTheSameLoggers() {
		RuntimeException failure = new RuntimeException("index function failed");
		logger(PROCESS_LOOP).error("DefaultController#processLoop recovered from crashing {}", failure.getMessage(),
				failure);
		logger(LISTENER).error("failed invoking ADD event handler: {}", failure);
		// the interrupt message with anything but an interrupt is not a stop
		logger(LISTENER).error("processor interrupted: {}", failure);
		logger(ELECTOR).error("Leader elector stopped due to an exception", failure);
		// SLF4J takes a lone exception argument as the event's throwable, so "{}" stays
		assertThat(this.logs.list).extracting(ILoggingEvent::getFormattedMessage)
			.containsExactly("DefaultController#processLoop recovered from crashing index function failed",
					"failed invoking ADD event handler: {}", "processor interrupted: {}",
					"Leader elector stopped due to an exception");
	}

	@Test
	void isInstalledOnce() {
		InterruptLogFilter.install();
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		assertThat(context.getTurboFilterList()).filteredOn(InterruptLogFilter.class::isInstance).hasSize(1);
	}

	private static Logger logger(String name) {
		return (Logger) LoggerFactory.getLogger(name);
	}

}
