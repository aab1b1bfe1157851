package dev.kubereconciler.autoconfigure.reconciler;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

import dev.kubereconciler.controller.ReconcileLogic;
import dev.kubereconciler.dependent.Dependents;
import dev.kubereconciler.reconcile.Cleaner;
import dev.kubereconciler.reconcile.ObjectReconciler;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.RequestReconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * Finds {@link Reconciler @Reconciler} methods on beans and records them, checking their
 * signatures as it goes.
 */
public class ReconcilerMethodProcessor implements BeanPostProcessor {

	private static final List<String> RECONCILER_FORMS = List.of("Request", "T", "T, ReconcileContext<T>",
			"Request, ReconcileContext<T>");

	private final List<ReconcilerMethod> methods = Collections.synchronizedList(new ArrayList<>());

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		Map<Method, Reconciler> annotated = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<Reconciler>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Reconciler.class));
		annotated
			.forEach((method, annotation) -> this.methods.add(reconcilerMethod(bean, beanName, method, annotation)));
		return bean;
	}

	/**
	 * Return every {@code @Reconciler} method found so far.
	 * @return the methods, in discovery order
	 */
	public List<ReconcilerMethod> getMethods() {
		synchronized (this.methods) {
			return List.copyOf(this.methods);
		}
	}

	private static ReconcilerMethod reconcilerMethod(Object bean, String beanName, Method method,
			Reconciler annotation) {
		String description = describe(method);
		Class<?>[] parameters = method.getParameterTypes();
		Class<?> returnType = method.getReturnType();
		Class<? extends KubernetesObject> watched = watchedType(method, annotation);
		boolean validReturn = returnType == Result.class || returnType == void.class;
		boolean request = parameters.length >= 1 && parameters[0] == Request.class;
		boolean object = parameters.length >= 1 && parameters[0].isAssignableFrom(watched)
				&& KubernetesObject.class.isAssignableFrom(parameters[0]);
		boolean context = parameters.length == 2 && isContextOf(method, 1, watched);
		if (!validReturn || parameters.length == 0 || parameters.length > 2 || !(request || object)
				|| (parameters.length == 2 && !context)) {
			throw new IllegalStateException("@Reconciler method " + description + " has an unsupported signature '"
					+ signature(method) + "'; supported: " + forms(method, RECONCILER_FORMS, watched) + ", where "
					+ watched.getSimpleName() + " is the watched type of "
					+ (inferred(annotation) ? "the method's parameters" : "@Reconciler(watches)"));
		}
		Method invocable = invocable(bean, method);
		boolean isVoid = returnType == void.class;
		ReconcileLogic<?> function;
		if (request && parameters.length == 1) {
			function = ofFunction(watched, (req) -> result(isVoid, invoke(invocable, bean, req)));
		}
		else if (request) {
			function = ofRequest(watched, (req, ctx) -> result(isVoid, invoke(invocable, bean, req, ctx)));
		}
		else {
			boolean withContext = parameters.length == 2;
			function = ofObject(watched, (target, ctx) -> result(isVoid,
					withContext ? invoke(invocable, bean, target, ctx) : invoke(invocable, bean, target)));
		}
		return new ReconcilerMethod(beanName, description, annotation, watched, function, bean);
	}

	/**
	 * Return the type a {@code @Reconciler} method watches: the one its annotation names,
	 * else the type of its object parameter, else the type argument of its
	 * {@code ReconcileContext<T>}, so that the method names its primary type once.
	 * @param method the method
	 * @param annotation its annotation
	 * @return the watched type
	 * @throws IllegalStateException when neither the annotation nor the parameters name
	 * it
	 */
	@SuppressWarnings("unchecked")
	static Class<? extends KubernetesObject> watchedType(Method method, Reconciler annotation) {
		if (!inferred(annotation)) {
			return annotation.watches();
		}
		Class<?>[] parameters = method.getParameterTypes();
		if (parameters.length >= 1 && isModel(parameters[0])) {
			return (Class<? extends KubernetesObject>) parameters[0];
		}
		if (parameters.length == 2 && contextArgument(method, 1) instanceof Class<?> argument && isModel(argument)) {
			return (Class<? extends KubernetesObject>) argument;
		}
		throw new IllegalStateException(
				"@Reconciler method " + describe(method) + " does not say which type it " + "watches: its parameters ("
						+ parameters(method) + ") name none; take the watched object, as in 'Result " + method.getName()
						+ "(V1ConfigMap configMap)', or name it with @Reconciler(watches = V1ConfigMap.class)");
	}

	private static boolean inferred(Reconciler annotation) {
		return annotation.watches() == KubernetesObject.class;
	}

	private static boolean isModel(Class<?> type) {
		return type != KubernetesObject.class && KubernetesObject.class.isAssignableFrom(type);
	}

	private static @Nullable Type contextArgument(Method method, int index) {
		if (method.getParameterTypes()[index] == ReconcileContext.class
				&& method.getGenericParameterTypes()[index] instanceof ParameterizedType parameterized) {
			return parameterized.getActualTypeArguments()[0];
		}
		return null;
	}

	private static <T extends KubernetesObject> ReconcileLogic<T> ofObject(Class<T> type,
			ObjectReconciler<T> reconciler) {
		return new ReconcileLogic.ObjectLogic<>(type, reconciler, null, Dependents.none());
	}

	private static <T extends KubernetesObject> ReconcileLogic<T> ofRequest(Class<T> type,
			RequestReconciler<T> reconciler) {
		return new ReconcileLogic.RequestLogic<>(type, reconciler, null, Dependents.none());
	}

	private static <T extends KubernetesObject> ReconcileLogic<T> ofFunction(Class<T> type,
			ReconcileFunction reconciler) {
		return new ReconcileLogic.FunctionLogic<>(type, reconciler, null, Dependents.none());
	}

	private static boolean isContextOf(Method method, int index, Class<?> watched) {
		if (method.getParameterTypes()[index] != ReconcileContext.class) {
			return false;
		}
		Type type = method.getGenericParameterTypes()[index];
		if (type instanceof ParameterizedType parameterized
				&& parameterized.getActualTypeArguments()[0] instanceof Class<?> argument) {
			return argument.isAssignableFrom(watched);
		}
		return true;
	}

	private static Method invocable(Object bean, Method method) {
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		return invocable;
	}

	static Result result(boolean isVoid, Object returned) {
		return isVoid ? Result.done() : (Result) returned;
	}

	static Object invoke(Method method, Object bean, Object... arguments) throws Exception {
		try {
			return method.invoke(bean, arguments);
		}
		catch (InvocationTargetException ex) {
			Throwable target = ex.getTargetException();
			if (target instanceof Exception exception) {
				throw exception;
			}
			if (target instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName();
	}

	private static String forms(Method method, List<String> forms, Class<?> watched) {
		List<String> signatures = new ArrayList<>();
		for (String form : forms) {
			String parameters = form.replace("<T>", "<" + watched.getSimpleName() + ">")
				.replace("T,", watched.getSimpleName() + ",");
			parameters = parameters.equals("T") ? watched.getSimpleName() : parameters;
			signatures.add("'Result " + method.getName() + "(" + parameters + ")'");
		}
		return String.join(", ", signatures) + ", or the same returning void";
	}

	private static String signature(Method method) {
		return method.getReturnType().getSimpleName() + " " + method.getName() + "(" + parameters(method) + ")";
	}

	private static String parameters(Method method) {
		return String.join(", ", Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toList());
	}

	/**
	 * A discovered {@code @Reconciler} method.
	 *
	 * @param beanName the name of the bean that declares it
	 * @param description the declaring class and method name, for messages
	 * @param annotation the annotation
	 * @param watches the watched type, from the annotation or the method's parameters
	 * @param function what the method runs as, by the form it takes
	 * @param bean the bean, which may implement {@link Cleaner}
	 */
	public record ReconcilerMethod(String beanName, String description, Reconciler annotation,
			Class<? extends KubernetesObject> watches, ReconcileLogic<?> function, @Nullable Object bean) {

	}

}
