package dev.kubereconciler.actuate;

import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import org.springframework.util.MimeType;

import dev.kubereconciler.actuate.ControllersEndpoint.ControllerDetails;

/**
 * {@link EndpointWebExtension @EndpointWebExtension} for the {@link ControllersEndpoint}:
 * shows object keys to authorized users only, as the {@code env} endpoint shows values,
 * and answers a bad argument with a 400 whose body says what is wrong.
 *
 * <p>
 * Spring Boot answers an {@link InvalidEndpointRequestException} with a 400 whose message
 * is hidden unless {@code server.error.include-message} is set, and a number that does
 * not parse with no message at all; operators retuning a bucket under pressure need to
 * know which argument was wrong, so arguments arrive as strings and are parsed here.
 */
@EndpointWebExtension(endpoint = ControllersEndpoint.class)
public class ControllersEndpointWebExtension {

	/** The selector under which the RBAC rules are served. */
	public static final String RBAC = "rbac";

	private static final MimeType YAML = MimeType.valueOf("application/yaml");

	private final ControllersEndpoint delegate;

	private final Show showItems;

	private final Set<String> roles;

	private final @Nullable Supplier<String> rbac;

	/**
	 * Create the extension.
	 * @param delegate the endpoint
	 * @param showItems when object keys are shown
	 * @param roles the roles that may see keys with {@link Show#WHEN_AUTHORIZED}; any
	 * authenticated user when empty
	 */
	public ControllersEndpointWebExtension(ControllersEndpoint delegate, Show showItems, Set<String> roles) {
		this(delegate, showItems, roles, null);
	}

	/**
	 * Create the extension.
	 * @param delegate the endpoint
	 * @param showItems when object keys are shown
	 * @param roles the roles that may see keys with {@link Show#WHEN_AUTHORIZED}; any
	 * authenticated user when empty
	 * @param rbac supplies the RBAC rules in YAML, served at {@code controllers/rbac};
	 * {@code null} for none
	 */
	public ControllersEndpointWebExtension(ControllersEndpoint delegate, Show showItems, Set<String> roles,
			@Nullable Supplier<String> rbac) {
		this.delegate = delegate;
		this.showItems = showItems;
		this.roles = roles;
		this.rbac = rbac;
	}

	/**
	 * Return one controller's details or, for {@value #RBAC}, the RBAC rules the
	 * controllers need as YAML; a controller named {@value #RBAC} is shadowed here.
	 * @param securityContext the security context
	 * @param name the controller name, or {@value #RBAC}
	 * @return the details, the YAML, or 404
	 */
	@ReadOperation
	public WebEndpointResponse<Object> controller(SecurityContext securityContext, @Selector String name) {
		if (RBAC.equals(name) && this.rbac != null) {
			return new WebEndpointResponse<>(this.rbac.get(), WebEndpointResponse.STATUS_OK, YAML);
		}
		ControllerDetails details = this.delegate.details(name, this.showItems.isShown(securityContext, this.roles));
		return (details != null) ? new WebEndpointResponse<>(details, WebEndpointResponse.STATUS_OK)
				: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
	}

	@ReadOperation
	public WebEndpointResponse<Object> simulate(@Selector String name, @Selector String operation,
			@Nullable String items, @Nullable String seconds) {
		return respond(
				() -> this.delegate.simulate(name, operation, integer("items", items), integer("seconds", seconds)));
	}

	@WriteOperation
	public WebEndpointResponse<Object> retuneManager(@Nullable String qps, @Nullable String burst) {
		return respond(() -> this.delegate.retuneManager(decimal("qps", qps), integer("burst", burst)));
	}

	@WriteOperation
	public WebEndpointResponse<Object> act(@Selector String name, @Selector String action, @Nullable String key,
			@Nullable String qps, @Nullable String burst, @Nullable String namespaces) {
		return respond(
				() -> this.delegate.act(name, action, key, decimal("qps", qps), integer("burst", burst), namespaces));
	}

	private static WebEndpointResponse<Object> respond(Supplier<@Nullable Object> operation) {
		try {
			Object body = operation.get();
			return (body != null) ? new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK)
					: new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		}
		catch (InvalidEndpointRequestException ex) {
			return new WebEndpointResponse<>(new BadRequest(ex.getMessage()), WebEndpointResponse.STATUS_BAD_REQUEST);
		}
	}

	private static @Nullable Integer integer(String name, @Nullable String value) {
		if (value == null) {
			return null;
		}
		try {
			return Integer.valueOf(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new InvalidEndpointRequestException(name + " must be a whole number, was '" + value + "'",
					"Invalid " + name);
		}
	}

	private static @Nullable Double decimal(String name, @Nullable String value) {
		if (value == null) {
			return null;
		}
		try {
			return Double.valueOf(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new InvalidEndpointRequestException(name + " must be a number, was '" + value + "'",
					"Invalid " + name);
		}
	}

	/**
	 * The body of a 400 answer.
	 *
	 * @param status always 400
	 * @param error always {@code Bad Request}
	 * @param message what is wrong, and what would be right
	 */
	public record BadRequest(int status, String error, @Nullable String message) implements OperationResponseBody {

		BadRequest(@Nullable String message) {
			this(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", message);
		}

	}

}
