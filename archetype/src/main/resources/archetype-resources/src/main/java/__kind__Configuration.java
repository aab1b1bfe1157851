package ${package};

import java.util.Map;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.kubereconciler.dependent.Dependent;

/**
 * The objects each {@link ${kind}} owns, declared by their desired state. The controller
 * that watches {@code ${kind}} applies them before its reconcile method runs, and deletes
 * them with the ${kind}.
 */
@Configuration(proxyBeanMethods = false)
public class ${kind}Configuration {

	/**
	 * Returns the ConfigMap that holds a ${kind}'s settings.
	 * @return the dependent
	 */
	@Bean
	Dependent<${kind}, V1ConfigMap> settings() {
		return Dependent.of("settings", V1ConfigMap.class,
				(resource, context) -> new V1ConfigMap()
					.metadata(new V1ObjectMeta().name(configMapName(resource)))
					.data((resource.getSpec() != null) ? resource.getSpec().getSettings() : Map.of()));
	}

	static String configMapName(${kind} resource) {
		return resource.getMetadata().getName() + "-settings";
	}

}
