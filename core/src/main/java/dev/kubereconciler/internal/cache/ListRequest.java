package dev.kubereconciler.internal.cache;

import org.jspecify.annotations.Nullable;

/**
 * The query of one list request: what client-java's {@code ListOptions} holds, with the
 * {@code resourceVersionMatch} it lacks.
 *
 * @param labelSelector the selector the server applies, or {@code null}
 * @param fieldSelector the field selector the server applies, or {@code null}
 * @param resourceVersion the version, or {@code null} for the newest (a consistent read)
 * @param resourceVersionMatch how the version is matched ({@code NotOlderThan},
 * {@code Exact}), or {@code null} for the server's default
 * @param limit the most objects in the answer, or {@code null} for no limit
 * @param continueToken where a paged list goes on, or {@code null} for its first page
 * @param timeoutSeconds the server's timeout, or {@code null}
 */
record ListRequest(@Nullable String labelSelector, @Nullable String fieldSelector, @Nullable String resourceVersion,
		@Nullable String resourceVersionMatch, @Nullable Integer limit, @Nullable String continueToken,
		@Nullable Integer timeoutSeconds) {

	/** The match that lets the watch cache answer any version at least as new. */
	static final String NOT_OLDER_THAN = "NotOlderThan";

	ListRequest withResourceVersion(@Nullable String version, @Nullable String match) {
		return new ListRequest(this.labelSelector, this.fieldSelector, version, match, this.limit, this.continueToken,
				this.timeoutSeconds);
	}

	ListRequest withLimit(@Nullable Integer limit) {
		return new ListRequest(this.labelSelector, this.fieldSelector, this.resourceVersion, this.resourceVersionMatch,
				limit, this.continueToken, this.timeoutSeconds);
	}

	/**
	 * The next page: the token carries the snapshot's version, which the request must not
	 * repeat.
	 */
	ListRequest continuing(String token, int pageSize) {
		return new ListRequest(this.labelSelector, this.fieldSelector, null, null, pageSize, token,
				this.timeoutSeconds);
	}

}
