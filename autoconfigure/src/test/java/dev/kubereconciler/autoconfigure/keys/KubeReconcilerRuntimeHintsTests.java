package dev.kubereconciler.autoconfigure.keys;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

import dev.kubereconciler.autoconfigure.reconciler.KubeReconcilerDefinitionsAutoConfiguration;
import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.events.EventsProperties;
import dev.kubereconciler.autoconfigure.webhook.WebhookProperties;
import dev.kubereconciler.autoconfigure.manifests.DeploymentProperties;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerRuntimeHints;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeReconcilerRuntimeHints}, and that Spring AOT processes the
 * auto-configuration and applies our hints, checked with {@link RuntimeHintsPredicates}.
 */
class KubeReconcilerRuntimeHintsTests {

	@Test
	void everyPropertiesClassIsBindableEvenWhenItsPartIsOff() {
		RuntimeHints hints = new RuntimeHints();
		new KubeReconcilerRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(KubeReconcilerProperties.class, "getDefaults"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ControllerProperties.class, "setNamespaces"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(EventsProperties.class, "setEnabled"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(DeploymentProperties.class, "setImage"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(WebhookProperties.class, "setPort"))
			.accepts(hints);
	}

	@Test
	void modelsTheEngineReadsAndWritesItselfAreRegistered() throws Exception {
		RuntimeHints hints = new RuntimeHints();
		new KubeReconcilerRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(V1Lease.class.getDeclaredConstructor()))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(V1LeaseSpec.class, "holderIdentity"))
			.accepts(hints);
	}

	@Test
	void aotFactoriesRegisterTheHints() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.anySatisfy((registrar) -> assertThat(registrar).isInstanceOf(KubeReconcilerRuntimeHints.class));
		assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
			.anySatisfy((processor) -> assertThat(processor).isInstanceOf(ReconcilerRuntimeHints.class));
	}

	@Test
	void springAotProcessesTheAutoConfigurationAndAppliesOurHints() throws Exception {
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get("com.example", "Application")), new InMemoryGeneratedFiles());
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.register(Application.class);
			new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
		}
		RuntimeHints hints = generationContext.getRuntimeHints();
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Mirror.class.getDeclaredMethod("reconcile", Request.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(V1ConfigMap.class, "data")).accepts(hints);
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(KubeReconcilerProperties.class, "getDefaults"))
			.accepts(hints);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KubeReconcilerAutoConfiguration.class,
			KubeReconcilerDefinitionsAutoConfiguration.class })
	static class Application {

		@Bean
		Mirror mirror() {
			return new Mirror();
		}

	}

	static class Mirror {

		@Reconciler(watches = V1ConfigMap.class)
		void reconcile(Request request) {
		}

	}

}
