package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.source.ChannelSource;
import dev.kubereconciler.source.Source;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for sources declared on {@code @Reconciler(sources)} and on a
 * {@link ControllerDefinition} bean, and their periods in
 * {@code kube-reconciler.controllers.<name>.sources.<source>.period}.
 */
class SourceConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void theAnnotationNamesSourceBeansAndTheControllerRunsTheSameChannelInstance() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class).run((context) -> {
			ControllerDefinition definition = definition(context, "annotated");
			assertThat(definition.sources()).extracting(Source::name).containsExactly("hooks", "inventory");
			assertThat(definition.sources().get(0)).isSameAs(context.getBean("hooks"));
			assertThat(definition.sources().get(1).period()).isEqualTo(Duration.ofMinutes(1));
		});
	}

	@Test
	void aPropertySetsThePeriodOfASourceOfTheAnnotationOrOfADefinitionBean() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class, DefinitionBean.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.sources.inventory.period=15s",
					"kube-reconciler.controllers.coded.sources.nightly.period=2h")
			.run((context) -> {
				assertThat(definition(context, "annotated").sources().get(1).period())
					.isEqualTo(Duration.ofSeconds(15));
				assertThat(definition(context, "coded").sources()).singleElement()
					.satisfies((source) -> assertThat(source.period()).isEqualTo(Duration.ofHours(2)));
			});
	}

	@Test
	void aPropertyForASourceTheControllerDoesNotHaveFailsNamingItsSources() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.sources.inventroy.period=15s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOfSatisfying(InvalidPropertyException.class, (ex) -> {
					assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.annotated.sources.inventroy");
					assertThat(ex.getAction()).contains("(hooks, inventory)");
				});
			});
	}

	@Test
	void aPeriodForAChannelFails() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.sources.hooks.period=15s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(InvalidPropertyException.class)
					.hasMessageContaining("source 'hooks' is a channel source, which has no period");
			});
	}

	@Test
	void aSourceNameThatIsNoSourceBeanFails() {
		this.contextRunner.withUserConfiguration(MissingSourceReconciler.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidPropertyException.class)
				.hasMessageContaining("no Source bean is named 'missing'");
		});
	}

	private static ControllerDefinition definition(AssertableApplicationContext context, String name) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager().controller(name).definition();
	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedReconciler {

		@Bean
		ChannelSource hooks() {
			return Source.channel("hooks");
		}

		@Bean
		Source inventory() {
			return Source.polling("inventory", Duration.ofMinutes(1), Map::of);
		}

		@Reconciler(name = "annotated", watches = V1ConfigMap.class, sources = { "hooks", "inventory" })
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingSourceReconciler {

		@Reconciler(name = "missing-source", watches = V1ConfigMap.class, sources = "missing")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DefinitionBean {

		@Bean
		ControllerDefinition coded() {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("coded")
				.source(Source.timer("nightly", Duration.ofHours(24)))
				.reconcile((request) -> Result.done());
		}

	}

}
