package dev.kubereconciler.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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

import dev.kubereconciler.events.ApiEventSink;
import dev.kubereconciler.events.EventDrop;
import dev.kubereconciler.events.EventRecorderListener;
import dev.kubereconciler.events.EventRecorders;
import dev.kubereconciler.metrics.EventMetrics;

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
	EventWriterThread kubeReconcilerEventWriterThread() {
		return new EventWriterThread();
	}

	@Bean
	@ConditionalOnMissingBean
	EventRecorders eventRecorders(ApiClient apiClient, EventsProperties properties, EventWriterThread thread,
			ObjectProvider<EventRecorderListener> listeners) {
		if (properties.getBufferCapacity() < 1) {
			throw new InvalidPropertyException("kube-reconciler.events.buffer-capacity", properties.getBufferCapacity(),
					"the buffer must hold at least one event",
					"Set it to 1 or more; the default is 1000, as client-go's maxQueuedEvents.");
		}
		String instance = (properties.getReportingInstance() != null) ? properties.getReportingInstance() : hostName();
		EventRecorders recorders = new EventRecorders(new ApiEventSink(apiClient), thread.executor, Clock.systemUTC(),
				instance, properties.getBufferCapacity(), composite(listeners.orderedStream().toList()));
		thread.schedule(recorders);
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
	 * The one daemon thread that writes events and ends series. It is not a
	 * {@link ScheduledExecutorService} bean, which would turn Spring Boot's task
	 * scheduling auto-configuration off.
	 */
	static final class EventWriterThread implements DisposableBean {

		final ScheduledThreadPoolExecutor executor;

		EventWriterThread() {
			this.executor = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "kube-reconciler-events");
				thread.setDaemon(true);
				return thread;
			});
		}

		void schedule(EventRecorders recorders) {
			long finish = EventRecorders.FINISH_PERIOD.toMillis();
			long refresh = EventRecorders.REFRESH_PERIOD.toMillis();
			this.executor.scheduleWithFixedDelay(recorders::finishSeries, finish, finish, TimeUnit.MILLISECONDS);
			this.executor.scheduleWithFixedDelay(recorders::refreshSeries, refresh, refresh, TimeUnit.MILLISECONDS);
		}

		@Override
		public void destroy() {
			this.executor.shutdownNow();
		}

	}

}
