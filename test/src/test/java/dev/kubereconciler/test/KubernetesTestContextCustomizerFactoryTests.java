package dev.kubereconciler.test;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.openapi.ApiClient;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import dev.kubereconciler.test.rbac.ApiRequestRecorder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubernetesTestContextCustomizerFactory}.
 */
@KubernetesTest
@ExtendWith(OutputCaptureExtension.class)
class KubernetesTestContextCustomizerFactoryTests {

	private final KubernetesTestContextCustomizerFactory factory = new KubernetesTestContextCustomizerFactory();

	@Test
	void customizesClassesOfKubernetesTestOnly() {
		assertThat(this.factory.createContextCustomizer(Plain.class, List.of())).isNull();
		assertThat(this.factory.createContextCustomizer(Annotated.class, List.of())).isNotNull();
		assertThat(this.factory.createContextCustomizer(MetaAnnotated.class, List.of())).isNotNull();
		assertThat(this.factory.createContextCustomizer(Subclass.class, List.of())).isNotNull();
		assertThat(this.factory.createContextCustomizer(Inner.class, List.of())).isNotNull();
	}

	@Test
	void customizersOfDifferentClassesAreEqualSoThatTheContextCacheKeyIsStable() {
		ContextCustomizer annotated = this.factory.createContextCustomizer(Annotated.class, List.of());
		ContextCustomizer meta = this.factory.createContextCustomizer(MetaAnnotated.class, List.of());
		assertThat(annotated).isEqualTo(meta).hasSameHashCodeAs(meta);
	}

	@Test
	void registersAClientOnTheSharedServer(KubernetesTestServer server) {
		try (AnnotationConfigApplicationContext context = customized(Application.class)) {
			assertThat(context.getBeansOfType(ApiClient.class)).hasSize(1);
			assertThat(context.getBean(ApiClient.class).getBasePath()).isEqualTo(server.url().toString());
			assertThat(context.getBean(KubernetesTestServer.class)).isSameAs(server);
			assertThat(context.getBeansOfType(ApiRequestRecorder.class)).hasSize(1);
		}
	}

	@Test
	void registersTheBeansOnceWhenTheApplicationImportsTheConfigurationToo() {
		try (AnnotationConfigApplicationContext context = customized(ImportingApplication.class)) {
			assertThat(context.getBeansOfType(ApiClient.class)).hasSize(1);
			assertThat(context.getBeansOfType(ApiRequestRecorder.class)).hasSize(1);
		}
	}

	@Test
	void logsEachContextsRefreshTimeAndItsCountInTheJvm(CapturedOutput output) {
		try (AnnotationConfigApplicationContext first = customized(Application.class);
				AnnotationConfigApplicationContext second = customized(Application.class)) {
			Matcher refreshed = Pattern
				.compile("Test application context (\\d+) of this JVM, for Annotated, refreshed in \\d+ ms")
				.matcher(output.getOut());
			assertThat(refreshed.find()).as(output.getOut()).isTrue();
			int count = Integer.parseInt(refreshed.group(1));
			assertThat(refreshed.find()).isTrue();
			assertThat(Integer.parseInt(refreshed.group(1))).isEqualTo(count + 1);
		}
	}

	private AnnotationConfigApplicationContext customized(Class<?> application) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.register(application);
		this.factory.createContextCustomizer(Annotated.class, List.of())
			.customizeContext(context, new MergedContextConfiguration(Annotated.class, new String[0],
					new Class<?>[] { application }, new String[0], null));
		context.refresh();
		return context;
	}

	@Configuration(proxyBeanMethods = false)
	static class Application {

	}

	@Configuration(proxyBeanMethods = false)
	@Import(KubernetesTestConfiguration.class)
	static class ImportingApplication {

	}

	static class Plain {

	}

	@KubernetesTest
	static class Annotated {

	}

	@Retention(RetentionPolicy.RUNTIME)
	@KubernetesTest
	@interface OperatorTest {

	}

	@OperatorTest
	static class MetaAnnotated {

	}

	static class Subclass extends Annotated {

	}

	@Nested
	class Inner {

	}

}
