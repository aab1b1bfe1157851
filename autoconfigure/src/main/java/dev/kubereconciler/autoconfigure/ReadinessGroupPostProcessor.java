package dev.kubereconciler.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Adds the {@code controllersReadiness} indicator to the {@code readiness} health group that
 * Spring Boot's Kubernetes probes define, so that a pod receives no traffic before its caches
 * synced; the {@code liveness} group is left alone. A readiness group the user configured
 * with an explicit {@code include} is left alone too.
 */
class ReadinessGroupPostProcessor implements HealthEndpointGroupsPostProcessor {

	static final String READINESS = "readiness";

	static final String MEMBER = "controllersReadiness";

	private final boolean userConfigured;

	ReadinessGroupPostProcessor(boolean userConfigured) {
		this.userConfigured = userConfigured;
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		HealthEndpointGroup readiness = groups.get(READINESS);
		if (readiness == null || this.userConfigured) {
			return groups;
		}
		Map<String, HealthEndpointGroup> byName = new LinkedHashMap<>();
		groups.getNames().forEach((name) -> byName.put(name, groups.get(name)));
		byName.put(READINESS, new WithControllers(readiness));
		return HealthEndpointGroups.of(groups.getPrimary(), byName);
	}

	private record WithControllers(HealthEndpointGroup delegate) implements HealthEndpointGroup {

		@Override
		public boolean isMember(String name) {
			return MEMBER.equals(name) || this.delegate.isMember(name);
		}

		@Override
		public boolean showComponents(SecurityContext securityContext) {
			return this.delegate.showComponents(securityContext);
		}

		@Override
		public boolean showDetails(SecurityContext securityContext) {
			return this.delegate.showDetails(securityContext);
		}

		@Override
		public StatusAggregator getStatusAggregator() {
			return this.delegate.getStatusAggregator();
		}

		@Override
		public HttpCodeStatusMapper getHttpCodeStatusMapper() {
			return this.delegate.getHttpCodeStatusMapper();
		}

		@Override
		public AdditionalHealthEndpointPath getAdditionalPath() {
			return this.delegate.getAdditionalPath();
		}

	}

}
