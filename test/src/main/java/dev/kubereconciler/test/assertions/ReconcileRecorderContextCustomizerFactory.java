package dev.kubereconciler.test.assertions;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

import dev.kubereconciler.test.KubernetesTest;

/**
 * Adds a {@link ReconcileRecorder} bean to the application context of every Spring test
 * annotated with {@link KubernetesTest}, so that the auto-configured manager, which
 * listens with every {@code ControllerListener} bean, records its reconciles.
 */
class ReconcileRecorderContextCustomizerFactory implements ContextCustomizerFactory {

	static final String BEAN_NAME = "kubeReconcilerReconcileRecorder";

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		// also finds the annotation on an enclosing class of a @Nested test class
		return TestContextAnnotationUtils.hasAnnotation(testClass, KubernetesTest.class)
				? new ReconcileRecorderContextCustomizer() : null;
	}

	/**
	 * Registers the recorder; all instances are equal, so that the contexts of
	 * {@code @KubernetesTest} classes are cached and shared as they would be without it.
	 */
	private static final class ReconcileRecorderContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			if (context instanceof BeanDefinitionRegistry registry) {
				registry.registerBeanDefinition(BEAN_NAME, new RootBeanDefinition(ReconcileRecorder.class));
			}
			else {
				context.getBeanFactory().registerSingleton(BEAN_NAME, new ReconcileRecorder());
			}
		}

		@Override
		public boolean equals(@Nullable Object obj) {
			return obj != null && obj.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
