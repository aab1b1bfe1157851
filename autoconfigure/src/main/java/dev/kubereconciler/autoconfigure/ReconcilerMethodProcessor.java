package dev.kubereconciler.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

import dev.kubereconciler.reconcile.ReconcileFunction;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;

/**
 * Finds {@link Reconciler @Reconciler} methods on beans and records them, checking their
 * signatures as it goes.
 */
class ReconcilerMethodProcessor implements BeanPostProcessor {

	private final List<ReconcilerMethod> methods = Collections.synchronizedList(new ArrayList<>());

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		Map<Method, Reconciler> annotated = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<Reconciler>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Reconciler.class));
		annotated.forEach((method, annotation) -> this.methods.add(reconcilerMethod(bean, beanName, method, annotation)));
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
		String description = method.getDeclaringClass().getName() + "." + method.getName();
		Class<?>[] parameters = method.getParameterTypes();
		Class<?> returnType = method.getReturnType();
		if (parameters.length != 1 || parameters[0] != Request.class
				|| (returnType != Result.class && returnType != void.class)) {
			throw new IllegalStateException("@Reconciler method " + description
					+ " must be 'Result " + method.getName() + "(Request)' or 'void " + method.getName()
					+ "(Request)'; found '" + returnType.getSimpleName() + " " + method.getName() + "("
					+ String.join(", ", java.util.Arrays.stream(parameters).map(Class::getSimpleName).toList()) + ")'");
		}
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		boolean isVoid = returnType == void.class;
		ReconcileFunction function = (request) -> {
			try {
				Object result = invocable.invoke(bean, request);
				return isVoid ? Result.done() : (Result) result;
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
		};
		return new ReconcilerMethod(beanName, description, annotation, function);
	}

	/**
	 * A discovered {@code @Reconciler} method.
	 *
	 * @param beanName the name of the bean that declares it
	 * @param description the declaring class and method name, for messages
	 * @param annotation the annotation
	 * @param function the method as a reconcile function
	 */
	public record ReconcilerMethod(String beanName, String description, Reconciler annotation,
			ReconcileFunction function) {

	}

}
