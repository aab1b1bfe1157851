package dev.kubereconciler.autoconfigure.actuate;

import java.util.HashSet;
import java.util.Set;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code controllers} endpoint.
 */
@ConfigurationProperties("management.endpoint.controllers")
public class ControllersEndpointProperties {

	/**
	 * When to show object keys (namespace/name) in the endpoint's responses.
	 */
	private Show showItems = Show.WHEN_AUTHORIZED;

	/**
	 * Roles used to determine whether a user is authorized to be shown object keys. When
	 * empty, all authenticated users are authorized.
	 */
	private Set<String> roles = new HashSet<>();

	public Show getShowItems() {
		return this.showItems;
	}

	public void setShowItems(Show showItems) {
		this.showItems = showItems;
	}

	public Set<String> getRoles() {
		return this.roles;
	}

	public void setRoles(Set<String> roles) {
		this.roles = roles;
	}

}
