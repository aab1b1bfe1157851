package dev.kubereconciler.crd;

/**
 * A field the CRD generator refuses, with a message that names the field and the fix,
 * thrown through victools' schema walk unchanged.
 */
final class FieldRefusedException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	FieldRefusedException(String message) {
		super(message);
	}

	FieldRefusedException(String message, Throwable cause) {
		super(message, cause);
	}

}
