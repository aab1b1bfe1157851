package dev.kubereconciler.autoconfigure.reconciler;

import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.Watch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReconcilerRuntimeHints} and {@link ModelHints}: the reflection on a
 * {@code @Reconciler} bean and on its models, checked with
 * {@link RuntimeHintsPredicates}.
 */
class ReconcilerRuntimeHintsTests {

	@Test
	void reconcilerMethodsAreInvocable() throws Exception {
		RuntimeHints hints = contribute(Mirror.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Mirror.class.getDeclaredMethod("reconcile", Request.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Mirror.class.getDeclaredMethod("other", V1Secret.class))).rejects(hints);
	}

	@Test
	void watchedOwnedAndMappedModelsAreCopiedAndReadByGson() throws Exception {
		RuntimeHints hints = contribute(Mirror.class);
		for (Class<?> model : List.of(V1ConfigMap.class, V1Secret.class, V1Pod.class)) {
			assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(model.getDeclaredConstructor()))
				.accepts(hints);
			assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(model, "metadata")).accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(V1ConfigMap.class, "data")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(V1ConfigMapList.class)).accepts(hints);
		// reached through fields: metadata, then its owner references
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(V1ObjectMeta.class, "ownerReferences"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(V1OwnerReference.class, "controller"))
			.accepts(hints);
	}

	@Test
	void aCustomResourceIsWalkedToItsSpecRecord() throws Exception {
		RuntimeHints hints = contribute(GadgetReconciler.class);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Gadget.class, "spec")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(GadgetSpec.class, "size")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(GadgetSpec.class.getDeclaredConstructor(int.class, Map.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Gadget.class, "getStatus")).accepts(hints);
	}

	@Test
	void aBeanWithoutReconcilerMethodsContributesNothing() {
		assertThat(new ReconcilerRuntimeHints().processAheadOfTime(registered(String.class))).isNull();
	}

	private static RuntimeHints contribute(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = new ReconcilerRuntimeHints()
			.processAheadOfTime(registered(beanClass));
		assertThat(contribution).isNotNull();
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get("com.example", "Application")), new InMemoryGeneratedFiles());
		contribution.applyTo(generationContext, null);
		return generationContext.getRuntimeHints();
	}

	private static RegisteredBean registered(Class<?> beanClass) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
		return RegisteredBean.of(beanFactory, "bean");
	}

	static class Mirror {

		@Reconciler(watches = V1ConfigMap.class, owns = V1Secret.class,
				maps = @Watch(type = V1Pod.class, mapper = "podMapper"))
		Result reconcile(Request request) {
			return Result.done();
		}

		void other(V1Secret secret) {
		}

	}

	static class GadgetReconciler {

		@Reconciler(watches = Gadget.class)
		void reconcile(Gadget gadget) {
		}

	}

	@ResourceCoordinates(group = "example.kubereconciler.dev", version = "v1", kind = "Gadget", plural = "gadgets")
	static class Gadget extends CustomResource<GadgetSpec, String> {

	}

	record GadgetSpec(int size, Map<String, String> labels) {

	}

}
