package dev.kubereconciler.reconcile;

/**
 * Thrown when an object is to get a controller owner reference while another controller
 * already owns it, as controller-runtime's {@code AlreadyOwnedError}. Like any error, it
 * is retried through the rate limiter, in case the other controller lets go.
 */
public class AlreadyOwnedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String owner;

	public AlreadyOwnedException(String object, String owner) {
		super("Object " + object + " is already owned by another controller " + owner);
		this.owner = owner;
	}

	/**
	 * Return the controller owner that holds the object, as {@code Kind/name}.
	 * @return the current owner
	 */
	public String getOwner() {
		return this.owner;
	}

}
