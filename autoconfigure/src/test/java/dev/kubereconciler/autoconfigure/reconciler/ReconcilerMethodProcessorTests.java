package dev.kubereconciler.autoconfigure.reconciler;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Secret;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.autoconfigure.ControllerProperties;
import dev.kubereconciler.autoconfigure.reconciler.ReconcilerMethodProcessor.ReconcilerMethod;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the signatures that {@link ReconcilerMethodProcessor} accepts and refuses.
 */
class ReconcilerMethodProcessorTests {

	private final ReconcilerMethodProcessor processor = new ReconcilerMethodProcessor();

	@Test
	void objectAndContextFormsNeedAContext() {
		this.processor.postProcessAfterInitialization(new Forms(), "forms");
		assertThat(this.processor.getMethods()).extracting(ReconcilerMethod::function)
			.hasSize(4)
			.filteredOn(ReconcileLogic::needsContext)
			.hasSize(3)
			.extracting(ReconcileLogic::takesObject)
			.containsExactlyInAnyOrder(true, true, false);
	}

	@Test
	void unsupportedSignatureNamesTheMethodAndTheSupportedForms() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.processor.postProcessAfterInitialization(new WrongType(), "wrong"))
			.withMessageContaining(WrongType.class.getName() + ".reconcile")
			.withMessageContaining("'Result reconcile(V1Secret)'")
			.withMessageContaining("'Result reconcile(Request)', 'Result reconcile(V1ConfigMap)', "
					+ "'Result reconcile(V1ConfigMap, ReconcileContext<V1ConfigMap>)', "
					+ "'Result reconcile(Request, ReconcileContext<V1ConfigMap>)', or the same returning void");
	}

	@Test
	void watchedTypeIsInferredFromTheObjectParameterOrTheContext() {
		this.processor.postProcessAfterInitialization(new Inferred(), "inferred");
		assertThat(this.processor.getMethods()).extracting(ReconcilerMethod::watches)
			.containsExactlyInAnyOrder(V1ConfigMap.class, V1Secret.class);
	}

	@Test
	void requestOnlyMethodWithoutWatchesFailsNamingTheFix() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.processor.postProcessAfterInitialization(new RequestOnly(), "requestOnly"))
			.withMessageContaining(RequestOnly.class.getName() + ".reconcile does not say which type it watches")
			.withMessageContaining("@Reconciler(watches = V1ConfigMap.class)");
	}

	@Test
	void finalizerWithoutCleanupFailsNamingWhatToAdd() {
		assertThatIllegalStateException().isThrownBy(() -> withFinalizer(new NoCleanup()))
			.withMessageContaining("finalizer 'example.com/held'")
			.withMessageContaining("implement Cleaner<V1ConfigMap> on the bean that declares the @Reconciler method");
	}

	@Test
	void cleanerOfTheBeanBecomesTheFinalizersCleaner() {
		WithCleanup bean = new WithCleanup();
		ControllerDefinition definition = withFinalizer(bean);
		assertThat(definition.reconciler().finalizer()).isEqualTo("example.com/held");
		assertThat(definition.reconciler().cleaner()).isSameAs(bean);
	}

	@Test
	void cleanerOfAnotherTypeIsRefusedNamingTheTypeToClean() {
		assertThatIllegalStateException().isThrownBy(() -> withFinalizer(new CleansSecrets()))
			.withMessageContaining("implements Cleaner<V1Secret>")
			.withMessageContaining("implement Cleaner<V1ConfigMap> instead");
	}

	@Test
	void cleanerWithoutAFinalizerNameImpliesOneOfTheControllersName() {
		ImpliedCleanup bean = new ImpliedCleanup();
		ControllerDefinition definition = withFinalizer(bean);
		assertThat(definition.reconciler().finalizer()).isEqualTo("kubereconciler.dev/held-finalizer");
		assertThat(definition.reconciler().cleaner()).isSameAs(bean);
	}

	@Test
	void controllerNameThatCannotFormTheImpliedFinalizerFailsNamingTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> withFinalizer(new ImpliedCleanup(), "held widgets"))
			.withMessageContaining("cannot form the implied finalizer 'kubereconciler.dev/held widgets-finalizer'")
			.withMessageContaining("@Reconciler(finalizer = \"example.com/cleanup\")")
			.withMessageContaining("kube-reconciler.controllers.held widgets.finalizer");
	}

	@Test
	void cleanerOfAnotherTypeWithoutAFinalizerNameIsRefusedToo() {
		assertThatIllegalStateException().isThrownBy(() -> withFinalizer(new ImpliedSecretCleanup()))
			.withMessageContaining("implements Cleaner<V1Secret>")
			.withMessageContaining("implement Cleaner<V1ConfigMap> instead");
	}

	@Test
	void beanWithoutCleanerAndWithoutFinalizerGetsNone() {
		ControllerDefinition definition = withFinalizer(new Forms());
		assertThat(definition.reconciler().finalizer()).isNull();
	}

	private ControllerDefinition withFinalizer(Object bean) {
		return withFinalizer(bean, "held");
	}

	// the definition of the bean's first @Reconciler method, with its finalizer applied
	private ControllerDefinition withFinalizer(Object bean, String name) {
		this.processor.postProcessAfterInitialization(bean, "bean");
		ReconcilerMethod method = this.processor.getMethods().get(0);
		ControllerDefinition definition = ControllerDefinition.builder(V1ConfigMap.class)
			.named(name)
			.reconcile(method.function());
		return Finalizers.apply(definition, method, new ControllerProperties());
	}

	static class Forms {

		@Reconciler(name = "a", watches = V1ConfigMap.class)
		Result byRequest(Request request) {
			return Result.done();
		}

		@Reconciler(name = "b", watches = V1ConfigMap.class)
		void byObject(V1ConfigMap configMap) {
		}

		@Reconciler(name = "c", watches = V1ConfigMap.class)
		Result byObjectAndContext(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			return Result.done();
		}

		@Reconciler(name = "d", watches = V1ConfigMap.class)
		Result byRequestAndContext(Request request, ReconcileContext<V1ConfigMap> context) {
			return Result.done();
		}

	}

	static class Inferred {

		@Reconciler
		void byObject(V1ConfigMap configMap) {
		}

		@Reconciler
		void byContext(Request request, ReconcileContext<V1Secret> context) {
		}

	}

	static class RequestOnly {

		@Reconciler
		void reconcile(Request request) {
		}

	}

	static class WrongType {

		@Reconciler(name = "wrong", watches = V1ConfigMap.class)
		Result reconcile(V1Secret secret) {
			return Result.done();
		}

	}

	static class NoCleanup {

		@Reconciler(name = "held", watches = V1ConfigMap.class, finalizer = "example.com/held")
		void reconcile(V1ConfigMap configMap) {
		}

	}

	static class WithCleanup implements Cleaner<V1ConfigMap> {

		@Reconciler(name = "held", watches = V1ConfigMap.class, finalizer = "example.com/held")
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			return Result.done();
		}

	}

	static class ImpliedCleanup implements Cleaner<V1ConfigMap> {

		@Reconciler(name = "held", watches = V1ConfigMap.class)
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1ConfigMap configMap, ReconcileContext<V1ConfigMap> context) {
			return Result.done();
		}

	}

	static class ImpliedSecretCleanup implements Cleaner<V1Secret> {

		@Reconciler(name = "held", watches = V1ConfigMap.class)
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1Secret secret, ReconcileContext<V1Secret> context) {
			return Result.done();
		}

	}

	static class CleansSecrets implements Cleaner<V1Secret> {

		@Reconciler(name = "held", watches = V1ConfigMap.class, finalizer = "example.com/held")
		void reconcile(V1ConfigMap configMap) {
		}

		@Override
		public Result cleanup(V1Secret secret, ReconcileContext<V1Secret> context) {
			return Result.done();
		}

	}

}
