package dev.kubereconciler.actuate;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import dev.kubereconciler.actuate.ControllersEndpoint.ControllerDetails;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link ControllersEndpoint} that
 * shows object keys to authorized users only, as the {@code env} endpoint shows values.
 */
@EndpointWebExtension(endpoint = ControllersEndpoint.class)
public class ControllersEndpointWebExtension {

	private final ControllersEndpoint delegate;

	private final Show showItems;

	private final Set<String> roles;

	/**
	 * Create the extension.
	 * @param delegate the endpoint
	 * @param showItems when object keys are shown
	 * @param roles the roles that may see keys with {@link Show#WHEN_AUTHORIZED}; any
	 * authenticated user when empty
	 */
	public ControllersEndpointWebExtension(ControllersEndpoint delegate, Show showItems, Set<String> roles) {
		this.delegate = delegate;
		this.showItems = showItems;
		this.roles = roles;
	}

	@ReadOperation
	public @Nullable ControllerDetails controller(SecurityContext securityContext, @Selector String name) {
		return this.delegate.details(name, this.showItems.isShown(securityContext, this.roles));
	}

}
