package dev.kubereconciler.test.assertions;

import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import dev.kubereconciler.controller.ControllerListener;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring test annotated with {@link KubernetesTest} gets a {@link ReconcileRecorder}
 * bean, through spring.factories, which a manager composing the context's
 * {@link ControllerListener} beans listens with; other tests get none.
 */
@KubernetesTest
@SpringJUnitConfig(ReconcileRecorderContextCustomizerFactoryTests.Empty.class)
class ReconcileRecorderContextCustomizerFactoryTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	ReconcileRecorder recorder;

	@Test
	void recorderIsTheContextsOnlyControllerListener() {
		assertThat(this.context.getBeansOfType(ControllerListener.class))
			.containsOnlyKeys(ReconcileRecorderContextCustomizerFactory.BEAN_NAME);
		assertThat(this.context.getBean(ControllerListener.class)).isSameAs(this.recorder);
	}

	@Test
	void testsWithoutKubernetesTestGetNoRecorder() {
		ReconcileRecorderContextCustomizerFactory factory = new ReconcileRecorderContextCustomizerFactory();
		// a test class of its own: a class nested in this one would find its annotation
		assertThat(factory.createContextCustomizer(FieldPathTests.class, List.of())).isNull();
		// equal customizers, so that Spring's context cache is not split by them
		assertThat(factory.createContextCustomizer(getClass(), List.of())).isNotNull()
			.isEqualTo(factory.createContextCustomizer(Inner.class, List.of()));
	}

	@Nested
	class Inner {

		@Autowired
		ReconcileRecorder innerRecorder;

		@Test
		void nestedClassesShareTheEnclosingClassesRecorder() {
			assertThat(this.innerRecorder).isSameAs(ReconcileRecorderContextCustomizerFactoryTests.this.recorder);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Empty {

	}

}
