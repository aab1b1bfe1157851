package dev.kubereconciler.test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.kubereconciler.crd.CrdFiles;
import dev.kubereconciler.test.rbac.RbacProofExtension;

/**
 * The JUnit extension behind {@link KubernetesTest}: skips (or, on CI, fails) when the
 * binaries are missing, installs the class's CRDs, gives each test class a namespace and
 * a client of its own on the {@linkplain KubernetesTestServer#shared() shared} server,
 * and injects them. Unless the class turns it off, a
 * {@linkplain dev.kubereconciler.test.gc.GarbageCollector garbage collector} runs on the
 * server.
 *
 * <p>
 * After a Spring test class it runs the {@linkplain RbacProofExtension RBAC proof}; a
 * class path without spring-test skips it.
 */
public final class KubernetesTestExtension implements ExecutionCondition, BeforeAllCallback, AfterAllCallback,
		TestInstancePostProcessor, ParameterResolver {

	/** The field manager of the CRDs the test support applies. */
	static final String FIELD_MANAGER = "kube-reconciler-test";

	private static final Namespace STORE = Namespace.create(KubernetesTestExtension.class);

	private static final SecureRandom RANDOM = new SecureRandom();

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		// once per run: the answer cannot change, and every test would otherwise
		// ask again
		return context.getRoot()
			.getStore(STORE)
			.computeIfAbsent(
					ConditionEvaluationResult.class, (key) -> evaluate(System.getenv(),
							KubernetesTestAssets.home(System.getenv()), EnvtestDownload.fromSystemProperties()),
					ConditionEvaluationResult.class);
	}

	/**
	 * Decide whether Kubernetes tests run in the given environment.
	 * @param environment the environment variables
	 * @param home the user's home folder
	 * @return enabled if the binaries are found or {@code CI=true} (so that the tests
	 * fail with the reason), disabled with the reason otherwise
	 */
	static ConditionEvaluationResult evaluate(Map<String, String> environment, Path home) {
		return evaluate(environment, home, null);
	}

	static ConditionEvaluationResult evaluate(Map<String, String> environment, Path home,
			@Nullable EnvtestDownload download) {
		try {
			KubernetesTestAssets assets = KubernetesTestAssets.discover(environment, home, download);
			return ConditionEvaluationResult.enabled("Kubernetes test server binaries: " + assets);
		}
		catch (MissingKubernetesTestAssetsException ex) {
			if ("true".equalsIgnoreCase(environment.get("CI"))) {
				// a CI run that quietly skips its integration tests would look green for
				// the wrong reason
				return ConditionEvaluationResult.enabled("CI=true, so the missing binaries fail the tests");
			}
			return ConditionEvaluationResult.disabled(ex.getMessage());
		}
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		// at class level, so that a server that cannot start fails the class once, up
		// front, and the CRDs are served before a Spring test's context starts
		resources(context);
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		new RbacProofExtension().afterAll(context);
	}

	@Override
	public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws IllegalAccessException {
		inject(testInstance, testInstance.getClass(), resources(context));
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return ClassResources.supports(parameterContext.getParameter().getType());
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		return resources(extensionContext).valueFor(parameterContext.getParameter().getType());
	}

	// Stored on the class, so the namespace outlives each test and goes with the class; a
	// store lookup also searches the enclosing contexts, so @Nested classes find their
	// outer class's resources instead of making their own.
	private static ClassResources resources(ExtensionContext context) {
		ExtensionContext classContext = context;
		while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
			classContext = classContext.getParent().get();
		}
		Class<?> testClass = classContext.getRequiredTestClass();
		boolean garbageCollection = SharedGarbageCollector.wanted(classContext, testClass);
		// the run's root store: once per JVM, as the shared server is
		InstalledCrds installedCrds = classContext.getRoot()
			.getStore(STORE)
			.computeIfAbsent(InstalledCrds.class, (key) -> new InstalledCrds(), InstalledCrds.class);
		return classContext.getStore(STORE)
			.computeIfAbsent(ClassResources.class,
					(key) -> ClassResources.create(testClass, garbageCollection, installedCrds), ClassResources.class);
	}

	// Static fields are left alone: a class's own static server or client, set in
	// @BeforeAll, must not be mistaken for a slot to fill. @BeforeAll methods take
	// parameters instead.
	private static void inject(Object instance, Class<?> testClass, ClassResources resources)
			throws IllegalAccessException {
		for (Class<?> type = testClass; type != null && type != Object.class; type = type.getSuperclass()) {
			for (Field field : type.getDeclaredFields()) {
				int modifiers = field.getModifiers();
				boolean wanted = !Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers)
						&& ClassResources.supports(field.getType());
				if (wanted) {
					field.setAccessible(true);
					if (field.get(instance) == null) {
						field.set(instance, resources.valueFor(field.getType()));
					}
				}
			}
		}
	}

	static String namespaceName(Class<?> testClass) {
		String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
		base = base.substring(0, Math.min(base.length(), 48)).replaceAll("^-+|-+$", "");
		StringBuilder name = new StringBuilder(base.isEmpty() ? "test" : base).append('-');
		String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
		for (int i = 0; i < 5; i++) {
			name.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
		}
		return name.toString();
	}

	/**
	 * What one test class gets: the server, its own client and its own namespace, which
	 * JUnit deletes by closing this when the class's context closes.
	 */
	private record ClassResources(KubernetesTestServer server, ApiClient client,
			TestNamespace namespace) implements AutoCloseable {

		static boolean supports(Class<?> type) {
			return type == ApiClient.class || type == KubernetesTestServer.class || type == TestNamespace.class;
		}

		static ClassResources create(Class<?> testClass, boolean garbageCollection, InstalledCrds installedCrds) {
			KubernetesTestServer server = KubernetesTestServer.shared();
			ApiClient client = server.apiClient();
			installCrds(testClass, client, installedCrds);
			TestNamespace namespace = new TestNamespace(namespaceName(testClass));
			try {
				new CoreV1Api(client)
					.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace.name())))
					.execute();
			}
			catch (ApiException ex) {
				throw new IllegalStateException(
						"Could not create namespace " + namespace + ": " + ex.getCode() + " " + ex.getResponseBody(),
						ex);
			}
			SharedGarbageCollector.apply(server, namespace, garbageCollection);
			return new ClassResources(server, client, namespace);
		}

		private static void installCrds(Class<?> testClass, ApiClient client, InstalledCrds installedCrds) {
			KubernetesTest test = null;
			for (Class<?> type = testClass; test == null && type != null; type = type.getEnclosingClass()) {
				test = AnnotationSupport.findAnnotation(type, KubernetesTest.class).orElse(null);
			}
			List<String> locations = (test != null) ? List.of(test.crds()) : List.of();
			List<Class<?>> customResources = (test != null) ? List.of(test.customResources()) : List.of();
			installedCrds.install(client, new CrdFiles(testClass.getClassLoader()).find(locations, customResources));
		}

		Object valueFor(Class<?> type) {
			if (type == ApiClient.class) {
				return this.client;
			}
			if (type == KubernetesTestServer.class) {
				return this.server;
			}
			if (type == TestNamespace.class) {
				return this.namespace;
			}
			// both callers ask supports(type) first
			throw new IllegalArgumentException("@KubernetesTest injects no " + type.getName());
		}

		@Override
		public void close() throws ApiException {
			try {
				new CoreV1Api(this.client).deleteNamespace(this.namespace.name()).execute();
			}
			catch (ApiException ex) {
				if (ex.getCode() != 404) {
					throw ex;
				}
			}
		}

	}

}
