package dev.kubereconciler.webhook.conversion;

import java.util.List;

import dev.kubereconciler.cache.ResourceType;

/**
 * A custom resource whose versions the application converts: the hub and its spokes,
 * which the CRD serves with {@code conversion.strategy: Webhook}.
 *
 * @param crdName the name of the CRD, {@code <plural>.<group>}
 * @param hub the hub version
 * @param spokes the other versions, each with a {@link VersionConverter}
 */
public record ConvertedResource(String crdName, ResourceType hub, List<ResourceType> spokes) {

	public ConvertedResource {
		spokes = List.copyOf(spokes);
	}

}
