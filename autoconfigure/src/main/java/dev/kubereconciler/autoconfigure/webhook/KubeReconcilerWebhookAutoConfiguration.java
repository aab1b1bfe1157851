package dev.kubereconciler.autoconfigure.webhook;

import java.time.Duration;
import java.util.List;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerAutoConfiguration;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.conversion.VersionConverter;
import dev.kubereconciler.webhook.server.WebhookListener;
import dev.kubereconciler.webhook.Webhooks;

/**
 * Auto-configuration that serves the application's {@link AdmissionValidator},
 * {@link AdmissionDefaulter} and {@link VersionConverter} beans as Kubernetes webhooks,
 * over HTTPS on a port of their own.
 */
@AutoConfiguration(after = KubeReconcilerAutoConfiguration.class,
		afterName = "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration")
@ConditionalOnClass(ApiClient.class)
@ConditionalOnProperty(prefix = "kube-reconciler", name = "enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "kube-reconciler.webhooks.enabled", matchIfMissing = true)
@EnableConfigurationProperties(WebhookProperties.class)
public final class KubeReconcilerWebhookAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Webhooks kubeReconcilerWebhooks(ConfigurableListableBeanFactory beanFactory) {
		return WebhookBeans.webhooks(beanFactory);
	}

	@Bean
	@ConditionalOnMissingBean
	WebhookServerLifecycle kubeReconcilerWebhookServer(Webhooks webhooks, WebhookProperties properties,
			ObjectProvider<SslBundles> sslBundles, ApiClient apiClient, ObjectProvider<WebhookListener> listeners,
			KubeReconcilerProperties kubeReconciler, Environment environment) {
		validate(properties);
		List<WebhookListener> all = listeners.orderedStream().toList();
		WebhookListener listener = (all.size() == 1) ? all.get(0) : new CompositeWebhookListener(all);
		return new WebhookServerLifecycle(webhooks, properties, sslBundles.getIfAvailable(), apiClient, listener,
				environment.getProperty("spring.application.name", "kube-reconciler"), kubeReconciler.isAutoStartup());
	}

	static void validate(WebhookProperties properties) {
		if (properties.getPort() < 0 || properties.getPort() > 65535) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.port", properties.getPort(),
					"it is no TCP port", "Give a port from 1 to 65535, or 0 for a free one; the default is 9443.");
		}
		if (properties.getThreads() < 1) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.threads", properties.getThreads(),
					"the webhook server needs at least one thread", "Give 1 or more; the default is 8.");
		}
		Duration timeout = properties.getTimeout();
		if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.compareTo(Duration.ofSeconds(30)) > 0) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.timeout", timeout,
					"the API server accepts a webhook timeout from 1 to 30 seconds",
					"Give a whole number of seconds from 1s to 30s; the default is 10s.");
		}
		String url = properties.getUrl();
		if (url != null && !url.startsWith("https://")) {
			throw new InvalidPropertyException("kube-reconciler.webhooks.url", url,
					"the API server calls webhooks only over HTTPS",
					"Give an https:// URL, such as https://127.0.0.1:9443, or leave it unset.");
		}
	}

	/**
	 * Tells every listener.
	 */
	private record CompositeWebhookListener(List<WebhookListener> listeners) implements WebhookListener {

		@Override
		public void started(String path) {
			this.listeners.forEach((listener) -> listener.started(path));
		}

		@Override
		public void finished(String path, int code, long nanos) {
			this.listeners.forEach((listener) -> listener.finished(path, code, nanos));
		}

	}

	/**
	 * Collects the webhook beans with the model types of their declarations.
	 */
	static final class WebhookBeans {

		private WebhookBeans() {
		}

		@SuppressWarnings({ "unchecked", "rawtypes" })
		static Webhooks webhooks(ConfigurableListableBeanFactory beanFactory) {
			Webhooks.Builder builder = Webhooks.builder();
			for (String name : beanFactory.getBeanNamesForType(AdmissionValidator.class)) {
				Class type = typeArgument(beanFactory, name, AdmissionValidator.class, 0);
				builder.validator(type, beanFactory.getBean(name, AdmissionValidator.class));
			}
			for (String name : beanFactory.getBeanNamesForType(AdmissionDefaulter.class)) {
				Class type = typeArgument(beanFactory, name, AdmissionDefaulter.class, 0);
				builder.defaulter(type, beanFactory.getBean(name, AdmissionDefaulter.class));
			}
			for (String name : beanFactory.getBeanNamesForType(VersionConverter.class)) {
				Class hub = typeArgument(beanFactory, name, VersionConverter.class, 0);
				Class spoke = typeArgument(beanFactory, name, VersionConverter.class, 1);
				builder.converter(hub, spoke, beanFactory.getBean(name, VersionConverter.class));
			}
			return builder.build();
		}

		private static Class<?> typeArgument(ConfigurableListableBeanFactory beanFactory, String name,
				Class<?> contract, int index) {
			Class<?> resolved = resolve(declaredType(beanFactory, name), contract, index);
			if (resolved == null) {
				resolved = resolve(ResolvableType.forClass(beanFactory.getType(name)), contract, index);
			}
			if (resolved == null) {
				throw new IllegalStateException("The bean '" + name + "' is a " + contract.getSimpleName()
						+ " of a type that cannot be told: declare it with its type, such as "
						+ contract.getSimpleName() + "<Widget>, in its class or its @Bean method's return type");
			}
			return resolved;
		}

		private static @Nullable ResolvableType declaredType(ConfigurableListableBeanFactory beanFactory, String name) {
			try {
				return beanFactory.getMergedBeanDefinition(name).getResolvableType();
			}
			catch (NoSuchBeanDefinitionException ex) {
				return null;
			}
		}

		private static @Nullable Class<?> resolve(@Nullable ResolvableType type, Class<?> contract, int index) {
			if (type == null) {
				return null;
			}
			return type.as(contract).getGeneric(index).resolve();
		}

	}

}
