package dev.kubereconciler.autoconfigure.events;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.events.ApiEventSink;
import dev.kubereconciler.events.EventDrop;
import dev.kubereconciler.events.EventRecorderListener;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.metrics.EventMetrics;
import dev.kubereconciler.time.DelayScheduler;

/**
 * Auto-configuration of {@link EventRecorders}, the factory of each controller's
 * Kubernetes Events recorder: {@code eventRecorders.forController(name)}.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnBean(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler.events", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(EventsProperties.class)
public final class KubeReconcilerEventsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	EventThreads kubeReconcilerEventThreads() {
		return new EventThreads();
	}

	@Bean
	@ConditionalOnMissingBean
	EventRecorders eventRecorders(ApiClient apiClient, EventsProperties properties, EventThreads threads,
			ObjectProvider<EventRecorderListener> listeners) {
		if (properties.getBufferCapacity() < 1) {
			throw new InvalidPropertyException("kube-reconciler.events.buffer-capacity", properties.getBufferCapacity(),
					"the buffer must hold at least one event",
					"Set it to 1 or more; the default is 1000, as client-go's maxQueuedEvents.");
		}
		String instance = (properties.getReportingInstance() != null) ? properties.getReportingInstance() : hostName();
		EventRecorders recorders = new EventRecorders(new ApiEventSink(apiClient), threads.executor, Clock.systemUTC(),
				instance, properties.getBufferCapacity(), composite(listeners.orderedStream().toList()));
		threads.schedule(recorders);
		return recorders;
	}

	private static EventRecorderListener composite(List<EventRecorderListener> listeners) {
		return new EventRecorderListener() {

			@Override
			public void written(String controller) {
				listeners.forEach((listener) -> listener.written(controller));
			}

			@Override
			public void dropped(String controller, EventDrop reason) {
				listeners.forEach((listener) -> listener.dropped(controller, reason));
			}

		};
	}

	private static String hostName() {
		String pod = System.getenv("HOSTNAME");
		if (pod != null && !pod.isBlank()) {
			return pod;
		}
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * Counts written and dropped events in Micrometer.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	@ConditionalOnProperty(prefix = "kube-reconciler.metrics", name = "enabled", matchIfMissing = true)
	static final class EventMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EventMetrics eventMetrics() {
			return new EventMetrics();
		}

	}

	/**
	 * The two daemon threads of events: one writes them, the other finishes and refreshes
	 * series, so that a backlog of writes never holds the series jobs back. They are not
	 * {@link ScheduledExecutorService} beans, which would turn Spring Boot's task
	 * scheduling auto-configuration off.
	 */
	static final class EventThreads implements DisposableBean {

		final ScheduledThreadPoolExecutor executor = daemon("kube-reconciler-events");

		final ScheduledThreadPoolExecutor seriesExecutor = daemon("kube-reconciler-event-series");

		void schedule(EventRecorders recorders) {
			recorders.start(DelayScheduler.of(this.seriesExecutor));
		}

		private static ScheduledThreadPoolExecutor daemon(String name) {
			return new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, name);
				thread.setDaemon(true);
				return thread;
			});
		}

		@Override
		public void destroy() {
			this.seriesExecutor.shutdownNow();
			this.executor.shutdownNow();
		}

	}

}
