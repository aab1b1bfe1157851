package dev.kubereconciler.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Adds the {@code controllersReadiness} and {@code webhooksReadiness} indicators to the
 * {@code readiness} health group that Spring Boot's Kubernetes probes define, so that a
 * pod receives no traffic before its caches synced and its webhook server served its
 * self-check, and keeps them out of the overall status; the {@code liveness} group is
 * left alone. A readiness group the user configured with an explicit {@code include} is
 * left alone too.
 */
class ReadinessGroupPostProcessor implements HealthEndpointGroupsPostProcessor {

	static final String READINESS = "readiness";

	static final String MEMBER = "controllersReadiness";

	static final String WEBHOOKS_MEMBER = "webhooksReadiness";

	private final boolean userConfigured;

	ReadinessGroupPostProcessor(boolean userConfigured) {
		this.userConfigured = userConfigured;
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		Map<String, HealthEndpointGroup> byName = new LinkedHashMap<>();
		groups.getNames().forEach((name) -> byName.put(name, groups.get(name)));
		HealthEndpointGroup readiness = groups.get(READINESS);
		if (readiness != null && !this.userConfigured) {
			byName.put(READINESS, new Membership(readiness, true));
		}
		// the overall status keeps ignoring a first sync, as the controllers
		// indicator does
		return HealthEndpointGroups.of(new Membership(groups.getPrimary(), false), byName);
	}

	private record Membership(HealthEndpointGroup delegate, boolean member) implements HealthEndpointGroup {

		@Override
		public boolean isMember(String name) {
			return (MEMBER.equals(name) || WEBHOOKS_MEMBER.equals(name)) ? this.member : this.delegate.isMember(name);
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
		public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
			return this.delegate.getAdditionalPath();
		}

	}

}
