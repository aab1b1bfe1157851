package dev.kubereconciler.webhook.admission;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The answer of a validating webhook: allowed or denied with a message, with warnings
 * that reach the client either way ({@code kubectl} prints them as {@code Warning: ...}).
 */
public final class AdmissionResult {

	private static final AdmissionResult ALLOWED = new AdmissionResult(null, List.of());

	private final @Nullable String denial;

	private final List<String> warnings;

	private AdmissionResult(@Nullable String denial, List<String> warnings) {
		this.denial = denial;
		this.warnings = List.copyOf(warnings);
	}

	/**
	 * Return the result that lets the request through.
	 * @return the result
	 */
	public static AdmissionResult allowed() {
		return ALLOWED;
	}

	/**
	 * Return a result that refuses the request; the API server answers the client with
	 * {@code 403 Forbidden} and this message after its own prefix, such as
	 * {@code admission webhook "..." denied the request: }.
	 * @param message why, written for the person who sent the object
	 * @return the result
	 */
	public static AdmissionResult denied(String message) {
		Objects.requireNonNull(message, "message must not be null");
		return new AdmissionResult(message, List.of());
	}

	/**
	 * Return a copy of this result with warnings added.
	 * @param warnings the warnings, each a short sentence without a {@code Warning:}
	 * prefix
	 * @return the result
	 */
	public AdmissionResult withWarnings(String... warnings) {
		List<String> all = new ArrayList<>(this.warnings);
		all.addAll(Arrays.asList(warnings));
		return new AdmissionResult(this.denial, all);
	}

	/**
	 * Return whether the request may go on.
	 * @return {@code true} unless denied
	 */
	public boolean isAllowed() {
		return this.denial == null;
	}

	/**
	 * Return the message of a denial.
	 * @return the message, or {@code null} when allowed
	 */
	public @Nullable String getDenial() {
		return this.denial;
	}

	/**
	 * Return the warnings.
	 * @return the warnings, in the order added
	 */
	public List<String> getWarnings() {
		return this.warnings;
	}

	@Override
	public String toString() {
		return (this.denial != null) ? "denied: " + this.denial + " " + this.warnings : "allowed " + this.warnings;
	}

}
