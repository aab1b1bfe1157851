package dev.kubereconciler.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.autoconfigure.keys.KubeReconcilerPropertyCheckAutoConfiguration;
import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for dependent beans, found by their primary type or named by
 * {@code @Reconciler(dependents)}, for {@code @Reconciler(readyCondition)}, and tuned by
 * {@code kube-reconciler.controllers.<name>.dependents.<dependent>.*}.
 */
class DependentConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(KubeReconcilerAutoConfiguration.class,
				KubeReconcilerDefinitionsAutoConfiguration.class, KubeReconcilerPropertyCheckAutoConfiguration.class))
		.withPropertyValues("kube-reconciler.auto-startup=false")
		.withBean(ApiClient.class, () -> new ApiClient().setBasePath("https://127.0.0.1:1").setReadTimeout(0));

	@Test
	void annotationNamesDependentBeansWhoseTypesAreOwned() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, AnnotatedReconciler.class).run((context) -> {
			ControllerDefinition definition = definition(context, "annotated");
			Dependents<?> dependents = definition.reconciler().dependents();
			assertThat(dependents.all()).extracting(Dependent::name).containsExactly("token", "config");
			assertThat(dependents.all().get(0)).isSameAs(context.getBean("tokenDependent"));
			assertThat(dependents.order()).extracting(Dependent::name).containsExactly("token", "config");
			assertThat(dependents.readyCondition()).isFalse();
			assertThat(definition.owns()).containsExactly(V1Secret.class, V1ConfigMap.class);
		});
	}

	@Test
	void dependentBeansGoToTheOnlyControllerOfTheirPrimaryType() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, ByType.class).run((context) -> {
			ControllerDefinition definition = definition(context, "by-type");
			Dependents<?> dependents = definition.reconciler().dependents();
			assertThat(dependents.all()).extracting(Dependent::name).containsExactly("token", "config");
			assertThat(dependents.all().get(1)).isSameAs(context.getBean("configDependent"));
			assertThat(definition.owns()).containsExactly(V1Secret.class, V1ConfigMap.class);
		});
	}

	@Test
	void anUnnamedDependentBeanThatHidesItsPrimaryTypeFails() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, ByType.class, AnnotatedReconciler.class)
			.withBean("extraDependent", Dependent.class, DependentConfigurationTests::extra)
			.run((context) -> assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("bean 'extraDependent' is declared as a Dependent without its primary type"));
	}

	@Test
	void aDependentBeanOfSeveralControllersThatNoneNamesFailsNamingThemAndTheFix() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, ByType.class, NamesOne.class)
			.run((context) -> assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("Every Dependent bean must go to one controller")
				.hasMessageContaining("bean 'configDependent' (a Dependent<V1ConfigMap, ?>) could go to any of the "
						+ "controllers 'by-type', 'names-one', which all watch V1ConfigMap: name it in the "
						+ "@Reconciler(dependents) of the one that owns its objects"));
	}

	@Test
	void aDependentBeanThatTheOnlyControllerOfItsTypeDoesNotNameFails() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, NamesOne.class)
			.run((context) -> assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("bean 'configDependent' (a Dependent<V1ConfigMap, ?>) is not among the "
						+ "dependents that controller 'names-one' names in @Reconciler(dependents) of ")
				.hasMessageContaining("add 'configDependent' there, or leave dependents out"));
	}

	@Test
	void aDependentBeanOfATypeNoControllerWatchesFails() {
		this.contextRunner.withUserConfiguration(DependentBeans.class)
			.run((context) -> assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("bean 'tokenDependent' (a Dependent<V1ConfigMap, ?>) belongs to no controller, "
						+ "as no @Reconciler method watches V1ConfigMap")
				.hasMessageContaining("bean 'configDependent'"));
	}

	@Test
	void aDependentBeanThatADefinitionBeanWasBuiltWithIsThatDefinitions() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, DefinitionOfBeans.class)
			.run((context) -> assertThat(definition(context, "of-beans").reconciler().dependents().all())
				.extracting(Dependent::name)
				.containsExactly("token", "config"));
	}

	@Test
	void readyConditionIsKeptForATypeWithStatusConditions() {
		this.contextRunner.withUserConfiguration(ReadyDeployments.class).run((context) -> {
			Dependents<?> dependents = definition(context, "ready").reconciler().dependents();
			assertThat(dependents.readyCondition()).isTrue();
			assertThat(dependents.all()).extracting(Dependent::name).containsExactly("service");
		});
	}

	@Test
	void readyConditionOnATypeWithoutStatusConditionsFailsNamingTheController() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, ReadyConfigMaps.class).run((context) -> {
			assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("Controller 'ready-configmaps' of @Reconciler method")
				.hasMessageContaining("has no status.conditions");
		});
	}

	@Test
	void aMissingDependentBeanFailsNamingTheControllerTheAttributeTheBeanAndTheFix() {
		this.contextRunner.withUserConfiguration(MissingDependent.class).run((context) -> {
			InvalidPropertyException ex = failure(context);
			assertThat(ex.getProperty()).startsWith("@Reconciler(dependents) of ")
				.endsWith("DependentConfigurationTests$MissingDependent.reconcile");
			assertThat(ex.getValue()).isEqualTo("nope");
			assertThat(ex.getReason()).isEqualTo("controller 'missing' names no bean 'nope'");
			assertThat(ex.getAction()).isEqualTo(
					"Define a Dependent<V1ConfigMap, ?> bean named 'nope' or remove it from @Reconciler(dependents).");
		});
	}

	@Test
	void aBeanThatIsNoDependentFails() {
		this.contextRunner.withUserConfiguration(NotADependent.class).run((context) -> {
			InvalidPropertyException ex = failure(context);
			assertThat(ex.getReason())
				.isEqualTo("bean 'plain' of controller 'plain' is a java.lang.String, " + "not a Dependent");
			assertThat(ex.getAction()).contains("Define a Dependent<V1ConfigMap, ?> bean named 'plain'");
		});
	}

	@Test
	void aDependentOfAnotherPrimaryTypeFails() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, WrongPrimary.class).run((context) -> {
			InvalidPropertyException ex = failure(context);
			assertThat(ex.getValue()).isEqualTo("serviceDependent");
			assertThat(ex.getReason()).isEqualTo("bean 'serviceDependent' is a Dependent<V1Deployment, ?>, which "
					+ "cannot be applied for the V1ConfigMap objects of controller 'wrong'");
			assertThat(ex.getAction()).startsWith("Declare bean 'serviceDependent' as a Dependent<V1ConfigMap, ?>");
		});
	}

	@Test
	void aDependentWhoseTypeArgumentsAreUnknownIsAccepted() {
		this.contextRunner.withUserConfiguration(AnnotatedReconciler.class)
			.withBean("tokenDependent", Dependent.class, DependentConfigurationTests::token)
			.withBean("configDependent", Dependent.class, DependentConfigurationTests::config)
			.run((context) -> assertThat(definition(context, "annotated").reconciler().dependents().all()).hasSize(2));
	}

	@Test
	void propertiesTurnADependentOffAndChangeAReadyTimeout() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.dependents.token.enabled=false",
					"kube-reconciler.controllers.annotated.dependents.config.ready-timeout=0")
			.run((context) -> {
				Dependents<?> dependents = definition(context, "annotated").reconciler().dependents();
				assertThat(dependents.all().get(0).isEnabled()).isFalse();
				assertThat(dependents.all().get(0).readyTimeout()).isEqualTo(Duration.ofMinutes(2));
				assertThat(dependents.all().get(1).isEnabled()).isTrue();
				assertThat(dependents.all().get(1).readyTimeout()).isZero();
				assertThat(dependents.order()).extracting(Dependent::name).containsExactly("config");
			});
	}

	@Test
	void propertiesTuneTheDependentsOfADefinitionBean() {
		this.contextRunner.withUserConfiguration(DefinitionBean.class)
			.withPropertyValues("kube-reconciler.controllers.coded.dependents.copies.ready-timeout=45s")
			.run((context) -> {
				ControllerDefinition definition = definition(context, "coded");
				Dependent<?, ?> copies = definition.reconciler().dependents().all().get(0);
				assertThat(copies.readyTimeout()).isEqualTo(Duration.ofSeconds(45));
				assertThat(copies.isEnabled()).isTrue();
				assertThat(definition.owns()).containsExactly(V1ConfigMap.class);
			});
	}

	@Test
	void anUnknownDependentNameFailsNamingThePropertyAndTheDependents() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.dependents.configs.enabled=false")
			.run((context) -> {
				InvalidPropertyException ex = failure(context);
				assertThat(ex.getProperty()).isEqualTo("kube-reconciler.controllers.annotated.dependents.configs");
				assertThat(ex.getReason()).isEqualTo("controller 'annotated' has no dependent named 'configs'");
				assertThat(ex.getAction())
					.isEqualTo("Use the name of one of its dependents (token, config) or remove the entry.");
			});
	}

	@Test
	void aDependentPropertyOfAControllerWithoutDependentsSaysItHasNone() {
		this.contextRunner
			.withBean("plainBean", ControllerDefinition.class,
					() -> ControllerDefinition.builder(V1ConfigMap.class)
						.named("plain-bean")
						.reconcile((request) -> Result.done()))
			.withPropertyValues("kube-reconciler.controllers.plain-bean.dependents.config.enabled=false")
			.run((context) -> assertThat(failure(context).getAction())
				.isEqualTo("Use the name of one of its dependents (it has none) or remove the entry."));
	}

	@Test
	void aNegativeReadyTimeoutFailsNamingItsProperty() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.dependents.config.ready-timeout=-1s")
			.run((context) -> assertThat(failure(context).getProperty())
				.isEqualTo("kube-reconciler.controllers.annotated.dependents.config.ready-timeout"));
	}

	@Test
	void aMisspelledDependentKeyIsRefusedWithTheNearestKey() {
		this.contextRunner.withUserConfiguration(DependentBeans.class, AnnotatedReconciler.class)
			.withPropertyValues("kube-reconciler.controllers.annotated.dependents.config.ready-timout=1m")
			.run((context) -> {
				InvalidPropertyException ex = failure(context);
				assertThat(ex.getProperty())
					.isEqualTo("kube-reconciler.controllers.annotated.dependents.config.ready-timout");
				assertThat(ex.getReason())
					.contains("the nearest is 'kube-reconciler.controllers.annotated.dependents.config.ready-timeout'");
			});
	}

	@Test
	void aDependsOnCycleFailsNamingTheController() {
		this.contextRunner.withUserConfiguration(CyclicDependents.class).run((context) -> {
			assertThat(cause(context, IllegalStateException.class))
				.hasMessageContaining("Controller 'cyclic' of @Reconciler method")
				.hasMessageContaining("cycle: a -> b -> a");
		});
	}

	private static ControllerDefinition definition(AssertableApplicationContext context, String name) {
		assertThat(context).hasNotFailed();
		return context.getBean(ManagedControllers.class).getManager().controller(name).definition();
	}

	private static InvalidPropertyException failure(AssertableApplicationContext context) {
		return cause(context, InvalidPropertyException.class);
	}

	private static <E extends Throwable> E cause(AssertableApplicationContext context, Class<E> type) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (failure != null && !type.isInstance(failure)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("a %s among the causes of %s", type.getSimpleName(), context.getStartupFailure())
			.isNotNull();
		return type.cast(failure);
	}

	static Dependent<V1ConfigMap, V1Secret> token() {
		return Dependent.<V1ConfigMap, V1Secret>of("token", V1Secret.class,
				(primary, context) -> new V1Secret().metadata(new V1ObjectMeta().name("token")),
				(options) -> options.readyTimeout(Duration.ofMinutes(2)));
	}

	static Dependent<V1ConfigMap, V1ConfigMap> config() {
		return Dependent.<V1ConfigMap, V1ConfigMap>of("config", V1ConfigMap.class,
				(primary, context) -> new V1ConfigMap().metadata(new V1ObjectMeta().name("copy")),
				(options) -> options.dependsOn("token"));
	}

	static Dependent<V1ConfigMap, V1Secret> extra() {
		return Dependent.<V1ConfigMap, V1Secret>of("extra", V1Secret.class,
				(primary, context) -> new V1Secret().metadata(new V1ObjectMeta().name("extra")));
	}

	@Configuration(proxyBeanMethods = false)
	static class DependentBeans {

		@Bean
		Dependent<V1ConfigMap, V1Secret> tokenDependent() {
			return token();
		}

		@Bean
		Dependent<V1ConfigMap, V1ConfigMap> configDependent() {
			return config();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnnotatedReconciler {

		@Reconciler(name = "annotated", watches = V1ConfigMap.class,
				dependents = { "tokenDependent", "configDependent" })
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ByType {

		@Reconciler(name = "by-type")
		Result reconcile(V1ConfigMap configMap) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NamesOne {

		@Reconciler(name = "names-one", watches = V1ConfigMap.class, dependents = "tokenDependent")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DefinitionOfBeans {

		@Bean
		ControllerDefinition ofBeans(Dependent<V1ConfigMap, V1Secret> tokenDependent,
				Dependent<V1ConfigMap, V1ConfigMap> configDependent) {
			return ControllerDefinition.builder(V1ConfigMap.class)
				.named("of-beans")
				.dependent(tokenDependent)
				.dependent(configDependent)
				.reconcile((request) -> Result.done());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReadyDeployments {

		@Bean
		Dependent<V1Deployment, V1Service> serviceDependent() {
			return Dependent.<V1Deployment, V1Service>of("service", V1Service.class,
					(primary, context) -> new V1Service().metadata(new V1ObjectMeta().name("web")));
		}

		@Reconciler(name = "ready", watches = V1Deployment.class, dependents = "serviceDependent",
				readyCondition = true)
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReadyConfigMaps {

		@Reconciler(name = "ready-configmaps", watches = V1ConfigMap.class, readyCondition = true)
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MissingDependent {

		@Reconciler(name = "missing", watches = V1ConfigMap.class, dependents = "nope")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NotADependent {

		@Bean
		String plain() {
			return "plain";
		}

		@Reconciler(name = "plain", watches = V1ConfigMap.class, dependents = "plain")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WrongPrimary {

		@Bean
		Dependent<V1Deployment, V1Service> serviceDependent() {
			return Dependent.<V1Deployment, V1Service>of("service", V1Service.class,
					(primary, context) -> new V1Service().metadata(new V1ObjectMeta().name("web")));
		}

		@Reconciler(name = "wrong", watches = V1ConfigMap.class, dependents = "serviceDependent")
		Result reconcile(Request request) {
			return Result.done();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CyclicDependents {

		@Bean
		Dependent<V1ConfigMap, V1Secret> a() {
			return Dependent.<V1ConfigMap, V1Secret>of("a", V1Secret.class,
					(primary, context) -> new V1Secret().metadata(new V1ObjectMeta().name("a")),
					(options) -> options.dependsOn("b"));
		}

		@Bean
		Dependent<V1ConfigMap, V1Secret> b() {
			return Dependent.<V1ConfigMap, V1Secret>of("b", V1Secret.class,
					(primary, context) -> new V1Secret().metadata(new V1ObjectMeta().name("b")),
					(options) -> options.dependsOn("a"));
		}

		@Reconciler(name = "cyclic", watches = V1ConfigMap.class, dependents = { "a", "b" })
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
				.dependent("copies", V1ConfigMap.class,
						(primary, context) -> new V1ConfigMap().metadata(new V1ObjectMeta().name("copy")),
						(options) -> options.readyTimeout(Duration.ofMinutes(1)))
				.reconcile((request) -> Result.done());
		}

	}

}
