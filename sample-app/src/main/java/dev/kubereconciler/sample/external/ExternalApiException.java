package dev.kubereconciler.sample.external;

/**
 * A failed call to the external API; the message is stable for one cause, so that writing
 * it into a status again changes nothing.
 */
public class ExternalApiException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int statusCode;

	public ExternalApiException(int statusCode, String message) {
		super(message);
		this.statusCode = statusCode;
	}

	/**
	 * Return the HTTP status the external API answered with.
	 * @return the status code
	 */
	public int getStatusCode() {
		return this.statusCode;
	}

}
