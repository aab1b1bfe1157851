package dev.kubereconciler.benchmarks.startup;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline.TimelineEvent;
import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;
import org.springframework.stereotype.Component;

/**
 * Prints what Spring's start-up steps, recorded by the
 * {@link BufferingApplicationStartup} of {@link StartupApplication}, say of the refresh,
 * as {@code startup-step NAME MICROS} lines that {@code StartupRounds} reads: each
 * phase's time ({@code phase:...}), the time spent making the beans of each of our
 * auto-configurations ({@code ours:...}, each bean's own time without the beans it asked
 * for), each bean of ours ({@code bean:...}) and the time of every other bean
 * ({@code beans:others}).
 */
@Component
public class StartupSteps {

	/** What every step line starts with. */
	public static final String PREFIX = "startup-step ";

	private static final String INSTANTIATE = "spring.beans.instantiate";

	private static final String SMART_INITIALIZE = "spring.beans.smart-initialize";

	private final ApplicationStartup startup;

	private final ConfigurableListableBeanFactory beanFactory;

	public StartupSteps(ApplicationStartup startup, ConfigurableListableBeanFactory beanFactory) {
		this.startup = startup;
		this.beanFactory = beanFactory;
	}

	/**
	 * Print the steps, if they were recorded.
	 */
	public void print() {
		if (!(this.startup instanceof BufferingApplicationStartup buffering)) {
			return;
		}
		List<TimelineEvent> events = buffering.getBufferedTimeline().getEvents();
		Map<Long, Long> children = new HashMap<>();
		for (TimelineEvent event : events) {
			Long parent = event.getStartupStep().getParentId();
			if (parent != null && isBean(event.getStartupStep().getName())) {
				children.merge(parent, micros(event), Long::sum);
			}
		}
		Map<String, Long> lines = new LinkedHashMap<>();
		for (TimelineEvent event : events) {
			StartupStep step = event.getStartupStep();
			if (!isBean(step.getName())) {
				lines.merge("phase:" + step.getName(), micros(event), Long::sum);
				continue;
			}
			long self = micros(event) - children.getOrDefault(step.getId(), 0L);
			String bean = tag(step, "beanName");
			String configuration = (bean != null) ? ours(bean) : null;
			if (configuration == null) {
				lines.merge("beans:others", self, Long::sum);
				continue;
			}
			lines.merge("beans:ours", self, Long::sum);
			lines.merge("ours:" + configuration, self, Long::sum);
			lines.merge("bean:" + bean + (step.getName().equals(SMART_INITIALIZE) ? "(smart-initialize)" : ""), self,
					Long::sum);
		}
		lines.forEach((name, micros) -> System.out.println(PREFIX + name + " " + micros));
	}

	private static boolean isBean(String step) {
		return step.equals(INSTANTIATE) || step.equals(SMART_INITIALIZE);
	}

	// the auto-configuration (or other class of ours) that defines the bean, by its
	// simple name; null when it is not ours
	private @Nullable String ours(String bean) {
		if (!this.beanFactory.containsBeanDefinition(bean)) {
			return null;
		}
		BeanDefinition definition = this.beanFactory.getBeanDefinition(bean);
		String factoryBean = definition.getFactoryBeanName();
		String type = (factoryBean != null && this.beanFactory.containsBeanDefinition(factoryBean))
				? this.beanFactory.getBeanDefinition(factoryBean).getBeanClassName() : definition.getBeanClassName();
		if (type == null || !type.startsWith("dev.kubereconciler.")
				|| type.startsWith("dev.kubereconciler.benchmarks.")) {
			return null;
		}
		String outer = (type.indexOf('$') > 0) ? type.substring(0, type.indexOf('$')) : type;
		return outer.substring(outer.lastIndexOf('.') + 1);
	}

	private static @Nullable String tag(StartupStep step, String key) {
		for (StartupStep.Tag tag : step.getTags()) {
			if (tag.getKey().equals(key)) {
				return tag.getValue();
			}
		}
		return null;
	}

	private static long micros(TimelineEvent event) {
		return event.getDuration().toNanos() / 1_000;
	}

}
