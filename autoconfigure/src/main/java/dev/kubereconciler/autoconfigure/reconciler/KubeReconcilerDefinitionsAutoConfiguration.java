package dev.kubereconciler.autoconfigure.reconciler;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;

import dev.kubereconciler.autoconfigure.ControllerDefinitionSource;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.RateLimiterCustomizer;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;

/**
 * Auto-configuration that finds {@code @Reconciler} methods and resolves them, with the
 * {@link ControllerDefinition} beans, into the definitions that
 * {@link KubeReconcilerAutoConfiguration}'s manager runs.
 */
@AutoConfiguration(before = KubeReconcilerAutoConfiguration.class)
@ConditionalOnClass(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler", name = "enabled", matchIfMissing = true)
public final class KubeReconcilerDefinitionsAutoConfiguration {

	@Bean
	static ReconcilerMethodProcessor reconcilerMethodProcessor() {
		return new ReconcilerMethodProcessor();
	}

	@Bean
	ControllerDefinitionSource kubeReconcilerControllerDefinitions(KubeReconcilerProperties properties,
			ReconcilerMethodProcessor methods, ObjectProvider<ControllerDefinition> definitionBeans,
			ObjectProvider<RateLimiterCustomizer> customizers, BeanFactory beanFactory) {
		ControllerDefinitionResolver definitions = new ControllerDefinitionResolver(properties,
				new RateLimiterBeans(beanFactory)::find, customizers.orderedStream().toList(),
				(name) -> beanFactory.containsBean(name) ? beanFactory.getBean(name) : null,
				(name) -> declaredType(beanFactory, name),
				(type) -> (beanFactory instanceof ListableBeanFactory listable)
						? List.of(listable.getBeanNamesForType(type)) : List.of());
		return () -> definitions.resolve(methods.getMethods(), definitionBeans.orderedStream().toList());
	}

	private static @Nullable ResolvableType declaredType(BeanFactory beanFactory, String name) {
		if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
			try {
				return listable.getMergedBeanDefinition(name).getResolvableType();
			}
			catch (NoSuchBeanDefinitionException ex) {
				// a singleton registered without a definition: its type is not known
			}
		}
		return null;
	}

	/**
	 * Looks up limiter beans by name, adapting client-java limiters; one client-java
	 * instance always gets the same adapter, so that a manager sees when controllers
	 * share it.
	 */
	static final class RateLimiterBeans {

		private final BeanFactory beanFactory;

		private final Map<Object, RateLimiter<Request>> adapters = new IdentityHashMap<>();

		RateLimiterBeans(BeanFactory beanFactory) {
			this.beanFactory = beanFactory;
		}

		@SuppressWarnings("unchecked")
		@Nullable RateLimiter<Request> find(String name) {
			if (!this.beanFactory.containsBean(name)) {
				return null;
			}
			Object bean = this.beanFactory.getBean(name);
			if (bean instanceof RateLimiter<?> limiter) {
				return (RateLimiter<Request>) limiter;
			}
			if (bean instanceof io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<?> clientJava) {
				return this.adapters.computeIfAbsent(clientJava, (key) -> RateLimiters
					.fromClientJava((io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<Request>) key));
			}
			return null;
		}

	}

}
