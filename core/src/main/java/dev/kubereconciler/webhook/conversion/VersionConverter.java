package dev.kubereconciler.webhook.conversion;

/**
 * Converts a custom resource between one of its versions, a spoke, and the hub version,
 * as controller-runtime's {@code Convertible} does with its {@code Hub}: with a converter
 * for each spoke, the conversion webhook turns any served version into any other through
 * the hub. The hub is usually the storage version.
 *
 * <p>
 * A conversion must lose nothing: a field one version has and the other lacks travels in
 * an annotation, so that a round trip gives back the object it started from. The
 * {@code metadata} of the result is the one received, with the labels and annotations the
 * converter set, as the API server allows no other change there.
 *
 * @param <H> the model class of the hub version
 * @param <S> the model class of the spoke version
 */
public interface VersionConverter<H, S> {

	/**
	 * Convert a spoke object to the hub version.
	 * @param spoke the object in the spoke version
	 * @return the object in the hub version
	 */
	H toHub(S spoke);

	/**
	 * Convert a hub object to the spoke version.
	 * @param hub the object in the hub version
	 * @return the object in the spoke version
	 */
	S fromHub(H hub);

}
