package dev.kubereconciler.internal.cache;

import org.jspecify.annotations.Nullable;

/**
 * Compares resourceVersions as the API server's are: as integers when both are numeric.
 * Others are opaque, as the API promises, and compare only as equal or not.
 */
final class ResourceVersions {

	private ResourceVersions() {
	}

	/**
	 * Return whether a version is newer than another; {@code true} when either is not
	 * numeric, so that the later one to arrive wins.
	 */
	static boolean isNewer(@Nullable String version, @Nullable String than) {
		if (version != null && than != null && isNumeric(version) && isNumeric(than)) {
			return Long.parseLong(version) > Long.parseLong(than);
		}
		return true;
	}

	/**
	 * Return whether a version is a number the API server's resourceVersions are.
	 */
	static boolean isNumeric(@Nullable String version) {
		if (version == null || version.isEmpty() || version.length() > 18) {
			return false;
		}
		for (int i = 0; i < version.length(); i++) {
			if (!Character.isDigit(version.charAt(i))) {
				return false;
			}
		}
		return true;
	}

}
