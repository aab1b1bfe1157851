package dev.kubereconciler.autoconfigure.reconciler;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Watch;

/**
 * Registers, while Spring AOT processes an application, the reflection that
 * {@link ReconcilerMethodProcessor} and the engine do on a bean with
 * {@link Reconciler @Reconciler} methods: the methods, which are invoked reflectively,
 * and the watched, owned and mapped model types (see {@link ModelHints}).
 *
 * <p>
 * Beans are still discovered at run time, by the post-processor, as without AOT; this
 * only makes a native image able to run them. The types of {@code ControllerDefinition}
 * beans are known only once the bean exists, so they are not covered.
 */
public class ReconcilerRuntimeHints implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = registeredBean.getBeanClass();
		if (reconcilerMethods(beanClass).isEmpty()) {
			return null;
		}
		return (generationContext, beanRegistrationCode) -> register(generationContext.getRuntimeHints(), beanClass);
	}

	/**
	 * Register the reflection on the {@code @Reconciler} methods of a bean class.
	 * @param hints the hints to add to
	 * @param beanClass the bean's class
	 */
	public static void register(RuntimeHints hints, Class<?> beanClass) {
		List<Class<?>> models = new ArrayList<>();
		reconcilerMethods(beanClass).forEach((method, annotation) -> {
			hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
			models.add(ReconcilerMethodProcessor.watchedType(method, annotation));
			models.addAll(List.of(annotation.owns()));
			for (Watch watch : annotation.maps()) {
				models.add(watch.type());
			}
		});
		ModelHints.register(hints, models.toArray(Class<?>[]::new));
	}

	private static Map<Method, Reconciler> reconcilerMethods(Class<?> beanClass) {
		return MethodIntrospector.selectMethods(beanClass,
				(MethodIntrospector.MetadataLookup<Reconciler>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, Reconciler.class));
	}

}
