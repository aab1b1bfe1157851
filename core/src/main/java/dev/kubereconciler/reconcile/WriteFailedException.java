package dev.kubereconciler.reconcile;

import java.util.Objects;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiException;
import org.jspecify.annotations.Nullable;

/**
 * A write to the API server that failed, saying which write it was
 * ({@code "status update"}, {@code "finalizer removal"}, ...), of which object, and the
 * server's own {@code Status}: its code, reason and message. It is the
 * {@link ApiException} it wraps in all else: the same code, headers and body, so that
 * code that tells a 409 Conflict or a 404 Not Found by {@link #getCode()} keeps working;
 * the client's exception is its cause.
 */
public final class WriteFailedException extends ApiException {

	private static final long serialVersionUID = 1L;

	private final String write;

	private final String object;

	private final @Nullable String dependent;

	private final @Nullable String reason;

	private final String serverMessage;

	private WriteFailedException(String write, String object, @Nullable String dependent, ApiException cause) {
		super(null, cause, cause.getCode(), cause.getResponseHeaders(), cause.getResponseBody());
		this.write = write;
		this.object = object;
		this.dependent = dependent;
		JsonObject status = status(cause.getResponseBody());
		this.reason = string(status, "reason");
		String message = string(status, "message");
		this.serverMessage = (message != null) ? message : describe(cause);
	}

	/**
	 * Wrap the client's exception of a failed write.
	 * @param write the write, such as {@code "status update"}
	 * @param object the object, such as {@code "Widget a/b"}
	 * @param cause what the client threw
	 * @return the exception
	 */
	public static WriteFailedException of(String write, String object, ApiException cause) {
		if (cause instanceof WriteFailedException failed) {
			return failed;
		}
		return new WriteFailedException(write, object, null, cause);
	}

	/**
	 * Return the same failure named as another write, such as a merge patch that was a
	 * {@code "finalizer removal"}.
	 * @param write the write
	 * @return the exception
	 */
	public WriteFailedException as(String write) {
		return copy(write, this.dependent);
	}

	/**
	 * Return the same failure, said to be the write of a dependent.
	 * @param dependent the dependent's name
	 * @return the exception
	 */
	public WriteFailedException ofDependent(String dependent) {
		return copy(this.write, dependent);
	}

	private WriteFailedException copy(String write, @Nullable String dependent) {
		WriteFailedException copy = new WriteFailedException(write, this.object, dependent, client());
		copy.setStackTrace(getStackTrace());
		for (Throwable suppressed : getSuppressed()) {
			copy.addSuppressed(suppressed);
		}
		return copy;
	}

	private ApiException client() {
		return (ApiException) Objects.requireNonNull(getCause());
	}

	/**
	 * Return the write that failed.
	 * @return the write, such as {@code "status update"}
	 */
	public String write() {
		return this.write;
	}

	/**
	 * Return the object the write was for.
	 * @return the kind, namespace and name, such as {@code "Widget a/b"}
	 */
	public String object() {
		return this.object;
	}

	/**
	 * Return the reason of the server's {@code Status}.
	 * @return the reason, such as {@code "Invalid"}, or {@code null} if the server sent
	 * no {@code Status}
	 */
	public @Nullable String reason() {
		return this.reason;
	}

	/**
	 * Return the message of the server's {@code Status}, or what failed when there was no
	 * answer.
	 * @return the message
	 */
	public String serverMessage() {
		return this.serverMessage;
	}

	@Override
	public String getMessage() {
		StringBuilder message = new StringBuilder().append(this.write).append(" of ").append(this.object);
		if (this.dependent != null) {
			message.append(" (dependent '").append(this.dependent).append("')");
		}
		message.append(" failed: ");
		if (getCode() > 0) {
			message.append(getCode()).append(' ');
		}
		if (this.reason != null && !this.reason.isEmpty()) {
			message.append(this.reason).append(": ");
		}
		return message.append(this.serverMessage).toString();
	}

	private static @Nullable JsonObject status(@Nullable String body) {
		if (body == null || body.isBlank()) {
			return null;
		}
		try {
			JsonElement json = JsonParser.parseString(body);
			return (json.isJsonObject() && "Status".equals(string(json.getAsJsonObject(), "kind")))
					? json.getAsJsonObject() : null;
		}
		catch (JsonParseException ex) {
			return null;
		}
	}

	private static @Nullable String string(@Nullable JsonObject json, String field) {
		JsonElement value = (json != null) ? json.get(field) : null;
		return (value != null && value.isJsonPrimitive()) ? value.getAsString() : null;
	}

	// no Status: a failure to reach the server, or an answer from something else
	private static String describe(ApiException cause) {
		if (cause.getCause() != null) {
			return String.valueOf(cause.getCause());
		}
		return (cause.getCode() > 0) ? "the answer carried no Kubernetes Status" : "no answer from the server";
	}

}
