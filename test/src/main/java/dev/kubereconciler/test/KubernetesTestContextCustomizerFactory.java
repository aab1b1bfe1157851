package dev.kubereconciler.test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.AnnotatedGenericBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Points the application context of a Spring test class annotated with
 * {@link KubernetesTest @KubernetesTest} at the shared test server, by registering
 * {@link KubernetesTestConfiguration}, as Spring Boot's service connections do for
 * containers. The application's webhooks, if it has any, are served on a free port, as
 * more than one test context may run at once. Each context logs how long it took to
 * refresh and how many this JVM has started, so that a suite sees what its test
 * configurations cost. Listed in {@code META-INF/spring.factories}.
 */
class KubernetesTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		// searches superclasses, meta-annotations and, for @Nested classes, the
		// enclosing class, as the JUnit extension itself does
		return TestContextAnnotationUtils.hasAnnotation(testClass, KubernetesTest.class)
				? new KubernetesTestContextCustomizer() : null;
	}

	/**
	 * Registers the configuration class under the name {@code @Import} would give it, so
	 * that a test that still imports it gets its beans once.
	 */
	private static final class KubernetesTestContextCustomizer implements ContextCustomizer {

		private static final String BEAN_NAME = KubernetesTestConfiguration.class.getName();

		private static final String WEBHOOK_PORT = "kube-reconciler.webhooks.port";

		private static final Logger logger = LoggerFactory.getLogger(KubernetesTestContextCustomizerFactory.class);

		private static final AtomicInteger CONTEXTS = new AtomicInteger();

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			// several test contexts live at once in one JVM: each serves its webhooks on
			// a free port unless the test or the application names one
			context.getEnvironment()
				.getPropertySources()
				.addLast(new MapPropertySource("kubernetesTest", Map.of(WEBHOOK_PORT, "0")));
			if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry
					&& !registry.containsBeanDefinition(BEAN_NAME)) {
				registry.registerBeanDefinition(BEAN_NAME,
						new AnnotatedGenericBeanDefinition(KubernetesTestConfiguration.class));
			}
			logStartTime(context, mergedConfig.getTestClass());
		}

		// Each context started is a configuration Spring's context cache did not hold:
		// the count and the time show what a suite spends on them, and which class
		// asked for one.
		private static void logStartTime(ConfigurableApplicationContext context, Class<?> testClass) {
			long customized = System.nanoTime();
			context.addApplicationListener((ApplicationListener<ContextRefreshedEvent>) (event) -> {
				if (event.getApplicationContext() == context) {
					logger.info("Test application context {} of this JVM, for {}, refreshed in {} ms",
							CONTEXTS.incrementAndGet(), testClass.getSimpleName(),
							TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - customized));
				}
			});
		}

		// Every class of @KubernetesTest gets the same beans: equal customizers keep one
		// cache key, so that classes with the same configuration share one context.
		@Override
		public boolean equals(Object obj) {
			return (obj != null) && obj.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
