package dev.kubereconciler.actuate;

/**
 * What the applies and prunes of one dependent of a controller did, as
 * {@link ControllerActivity} counts them.
 *
 * @param applied applies that changed the server's object: created it, or updated it
 * @param unchanged applies that found the object as wanted and sent no write, or whose
 * write changed nothing
 * @param driftCorrections applies that put back a field someone else had changed; also in
 * {@code applied}
 * @param prunes objects deleted because the dependent no longer wanted them
 */
public record DependentCounts(long applied, long unchanged, long driftCorrections, long prunes) {

	static final DependentCounts NONE = new DependentCounts(0, 0, 0, 0);

}
